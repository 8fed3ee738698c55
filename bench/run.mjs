// `npm run bench`: runs every bench/*.bench.mjs (or the ones named) one after another.
// Each compares Refract side by side with the engine or baseline it wraps, in one run, and
// writes a markdown table to bench/results/<name>.md. Needs `npm run build` first.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const wanted = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)));

let failed = 0;
for (const file of benches) {
  console.log(`\n## ${file}`);
  const run = spawnSync(process.execPath, [`${dir}${file}`], { stdio: 'inherit' });
  if (run.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
