// Which packages a built script's bytes come from, by its source map: `node
// bench/bundle-attribution.mjs [file.js]` (default: the entry script of apps/web/dist/index.html,
// the home page's first download). Minified bytes, before compression; each generated span is
// charged to the source of the mapping that starts it. Needs `npm run build` first.
// source-map-js comes with Vite (through PostCSS), so it is there whenever the app builds.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SourceMapConsumer } from 'source-map-js';

const dist = fileURLToPath(new URL('../apps/web/dist/', import.meta.url));
const entry = () => {
  const html = readFileSync(`${dist}index.html`, 'utf8');
  const src = html.match(/<script type="module" crossorigin src="\/([^"]+)"/)?.[1];
  if (!src) throw new Error('no entry script in apps/web/dist/index.html');
  return `${dist}${src}`;
};

const file = process.argv[2] ?? entry();
const lines = readFileSync(file, 'utf8').split('\n');
const map = new SourceMapConsumer(JSON.parse(readFileSync(`${file}.map`, 'utf8')));

/** A package under node_modules by its name, else the app's folder (src/features/auth). */
const owner = (source) =>
  source.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ??
  source
    .replace(/.*?\/src\//, 'src/')
    .split('/')
    .slice(0, 3)
    .join('/');

const mappings = [];
map.eachMapping((m) => mappings.push(m));
const bytes = new Map();
mappings.forEach((m, i) => {
  const next = mappings[i + 1];
  const end =
    next?.generatedLine === m.generatedLine
      ? next.generatedColumn
      : lines[m.generatedLine - 1].length;
  const name = m.source ? owner(m.source) : '(unmapped)';
  bytes.set(name, (bytes.get(name) ?? 0) + end - m.generatedColumn);
});

const total = [...bytes.values()].reduce((a, b) => a + b, 0);
console.log(`${file}: ${(total / 1024).toFixed(1)} KB minified, by source`);
for (const [name, n] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, 30))
  console.log(`${(n / 1024).toFixed(1).padStart(7)}  ${name}`);
