// Proves the attack suite has teeth: removes each defence in turn (a small source edit), runs the
// tests that guard it, and expects them to FAIL; then puts the source back. Not part of CI (it
// edits the working tree and takes minutes): run `node scripts/check-defences.mjs [words…]` after
// changing a defence or its test. Results: docs/security.md, "Each defence disabled once".
import { readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { DEFENCES } from './defences.mjs';

// Optional filters: only the defences whose name contains one of the words given.
const filters = process.argv.slice(2).map((f) => f.toLowerCase());
const chosen = DEFENCES.filter(
  (d) => filters.length === 0 || filters.some((f) => d.defence.toLowerCase().includes(f)),
);
const originals = new Map();

function restore() {
  for (const [file, text] of originals) writeFileSync(file, text);
  originals.clear();
}
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => (restore(), process.exit(130)));

/** Applies every edit of one defence; each `find` must occur exactly once. */
function disable({ edits }) {
  for (const [file, find, replace] of edits) {
    if (!originals.has(file)) originals.set(file, readFileSync(file, 'utf8'));
    const current = readFileSync(file, 'utf8');
    const count = current.split(find).length - 1;
    if (count !== 1) throw new Error(`${file}: expected one "${find}", found ${count}`);
    writeFileSync(file, current.replace(find, replace));
  }
}

function runTests([file, name], { postgres = false } = {}) {
  // SQLite and the embedded queue only: the point is the defence, not the database. A defence
  // that only PostgreSQL needs (SQLite has one writer) keeps TEST_DATABASE_URL.
  const env = {
    ...process.env,
    TEST_DATABASE_URL: postgres ? (process.env.TEST_DATABASE_URL ?? '') : '',
    REDIS_URL: '',
  };
  const args = ['vitest', 'run', file, '-t', name, '--reporter=dot'];
  return spawnSync('npx', args, { env, encoding: 'utf8' });
}

const rows = [];
for (const defence of chosen) {
  let caught;
  try {
    if (defence.postgres && !process.env.TEST_DATABASE_URL)
      throw new Error('needs TEST_DATABASE_URL (a PostgreSQL defence)');
    disable(defence);
    const run = runTests(defence.test, defence);
    const ran = /Tests\s.*\d+ (passed|failed)/.test(run.stdout);
    caught = ran && run.status !== 0 ? 'yes' : ran ? 'NO: the tests still pass' : 'no test ran';
  } catch (err) {
    caught = `error: ${err.message}`;
  } finally {
    restore();
  }
  rows.push(
    `| ${defence.defence} | \`${defence.test[0].replace('apps/server/src/', '')}\`: ${defence.test[1]} | ${caught} |`,
  );
  console.log(rows.at(-1));
}
console.log(['', '| defence removed | test | test failed |', '|---|---|---|', ...rows].join('\n'));
process.exit(rows.every((r) => r.endsWith('| yes |')) ? 0 : 1);
