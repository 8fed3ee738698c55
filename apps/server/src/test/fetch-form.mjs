// Posts a form of random files with Node's fetch, from a process of its own, as a client does:
// within the server's process the client would read the answer before the server closed.
// Argument: JSON { url, token?, fields, files: [{ field, name, bytes }] }. Prints the answer as
// JSON { status, headers, body }, or { error } when fetch got none.
import { randomBytes } from 'node:crypto';

const { url, token, fields, files } = JSON.parse(process.argv[2]);
const form = new FormData();
for (const [name, value] of Object.entries(fields)) form.append(name, value);
// Random bytes: nothing on the way can shrink them.
for (const file of files) form.append(file.field, new Blob([randomBytes(file.bytes)]), file.name);
try {
  const res = await fetch(url, {
    method: 'POST',
    body: form,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const headers = Object.fromEntries(res.headers);
  console.log(JSON.stringify({ status: res.status, headers, body: await res.json() }));
} catch (err) {
  console.log(JSON.stringify({ error: `${err}: ${err.cause ?? ''}` }));
}
