// Which packages a built page's first scripts come from, by their source maps: `node
// bench/bundle-attribution.mjs [file.js …]` (default: every script apps/web/dist/index.html
// loads or preloads, the home page's first download). Minified bytes, before compression; each
// generated span is charged to the source of the mapping that starts it. `--by-file` names
// files within packages (which Mantine components, say). Needs `npm run build` first.
// source-map-js comes with Vite (through PostCSS), so it is there whenever the app builds.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SourceMapConsumer } from 'source-map-js';

const dist = process.env.WEB_DIST_DIR
  ? `${process.env.WEB_DIST_DIR}/`
  : fileURLToPath(new URL('../apps/web/dist/', import.meta.url));
const args = process.argv.slice(2);
const byFile = args.includes('--by-file');
const firstScripts = () => {
  const html = readFileSync(`${dist}index.html`, 'utf8');
  const srcs = [
    ...html.matchAll(
      /<(?:script type="module"|link rel="modulepreload") crossorigin (?:src|href)="\/([^"]+\.js)"/g,
    ),
  ].map((m) => `${dist}${m[1]}`);
  if (srcs.length === 0) throw new Error('no scripts in apps/web/dist/index.html');
  return srcs;
};
const files = args.filter((a) => !a.startsWith('--'));

/** A package under node_modules by its name, else the app's folder (src/features/auth). */
const owner = (source) =>
  byFile
    ? source.replace(/.*node_modules\//, '').replace(/.*?\/src\//, 'src/')
    : (source.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ??
      source
        .replace(/.*?\/src\//, 'src/')
        .split('/')
        .slice(0, 3)
        .join('/'));

const bytes = new Map();
for (const file of files.length > 0 ? files : firstScripts()) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const map = new SourceMapConsumer(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
  const mappings = [];
  map.eachMapping((m) => mappings.push(m));
  mappings.forEach((m, i) => {
    const next = mappings[i + 1];
    const end =
      next?.generatedLine === m.generatedLine
        ? next.generatedColumn
        : lines[m.generatedLine - 1].length;
    const name = m.source ? owner(m.source) : '(unmapped)';
    bytes.set(name, (bytes.get(name) ?? 0) + end - m.generatedColumn);
  });
  console.log(file.replace(dist, 'apps/web/dist/'));
}

const total = [...bytes.values()].reduce((a, b) => a + b, 0);
console.log(`${(total / 1024).toFixed(1)} KB minified, by source`);
for (const [name, n] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, byFile ? 60 : 30))
  console.log(`${(n / 1024).toFixed(1).padStart(7)}  ${name}`);
