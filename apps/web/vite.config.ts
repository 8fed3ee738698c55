import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { appPreload } from './vite-app-preload';

const root = fileURLToPath(new URL('.', import.meta.url));
const contractsDir = fileURLToPath(new URL('../../packages/contracts/src/', import.meta.url));
const contracts = `${contractsDir}index.ts`;

/** Text files worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|css|html|json|svg|txt)$/;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes a `.br` and a `.gz` beside each text file of the build, at the highest levels (the
 * work is done once, here), so the server sends them as they are by Accept-Encoding
 * (plugins/web-app.ts) instead of compressing on every request or not at all. All the files at
 * once, in libuv's threads: the same bytes as one by one, on every core.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  let ssr = false; // the prerendering build (src/prerender) runs at build time, never served
  return {
    name: 'refract-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
      ssr = Boolean(config.build.ssr);
    },
    // From the files as written: earlier hooks (Vite's preload helper among them) still change
    // the code in generateBundle, so the compressed copies are made from the final bytes.
    async writeBundle(_options, bundle) {
      if (ssr) return;
      const brotli = { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY };
      const compress = async (fileName: string) => {
        const path = resolve(root, outDir, fileName);
        const bytes = await readFile(path);
        if (bytes.length < 1024) return;
        await Promise.all([
          brotliAsync(bytes, { params: brotli }).then((out) => writeFile(`${path}.br`, out)),
          gzipAsync(bytes, { level: 9 }).then((out) => writeFile(`${path}.gz`, out)),
        ]);
      };
      // Largest first, so the longest (the app's script, over a second) does not start last.
      const size = (output: (typeof bundle)[string]) =>
        output.type === 'chunk' ? output.code.length : output.source.length;
      const files = Object.keys(bundle).filter((fileName) => COMPRESSIBLE.test(fileName));
      files.sort((a, b) => size(bundle[b]!) - size(bundle[a]!));
      await Promise.all(files.map(compress));
    },
  };
}

/**
 * The contracts define their zod schemas as module-level constants beside the constants the
 * pages use (tool lists, languages). Rollup keeps a module-level call it cannot prove free of
 * side effects, so every schema, and zod with them, was in the first script (32 KB of gzip for
 * the ten constants the pages import). Each module-level constant of the contracts is wrapped
 * in an IIFE marked pure: the same value when used, dropped when not. Contracts do no work at
 * load time but build values, so this changes nothing else.
 */
function pureContractConstants(): Plugin {
  return {
    name: 'refract-pure-contract-constants',
    transform(code, id) {
      if (!id.startsWith(contractsDir)) return;
      const inits: { start: number; end: number }[] = [];
      for (const node of this.parse(code).body) {
        const declaration = node.type === 'ExportNamedDeclaration' ? node.declaration : node;
        if (declaration?.type !== 'VariableDeclaration') continue;
        for (const { init } of declaration.declarations)
          if (init?.type === 'CallExpression' || init?.type === 'MemberExpression')
            inits.push(init as unknown as { start: number; end: number });
      }
      let out = code;
      for (const { start, end } of inits.sort((a, b) => b.start - a.start))
        out = `${out.slice(0, start)}/* @__PURE__ */ (() => (${out.slice(start, end)}))()${out.slice(end)}`;
      return { code: out, map: null };
    },
  };
}

/**
 * The entry stylesheet stops blocking the first paint: it is fetched as `media="print"` (which
 * never blocks rendering) and main.tsx switches it to all media before React's first render, so
 * the static shell in index.html (styled inline) paints as soon as the HTML arrives, and no
 * component ever shows unstyled. The prerendered pages carry the same styles in the HTML
 * (src/prerender/prerender-pages.tsx).
 */
function nonBlockingStylesheet(): Plugin {
  return {
    name: 'refract-non-blocking-stylesheet',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        html.replace(
          /<link rel="stylesheet"( crossorigin)? href="([^"]+\.css)">/g,
          '<link rel="stylesheet"$1 href="$2" media="print" data-app-styles>',
        ),
    },
  };
}

/**
 * Mantine's styles per component instead of the whole library's (`@mantine/core/styles.css`):
 * each component's class map (`X.module.css.mjs`) imports its own stylesheet (`styles/X.css`,
 * one to one), so a component's CSS ships exactly when its code does, in the same chunk, and in
 * the order its code runs (a component after the ones it is built on, as Mantine requires).
 * All of Mantine's CSS is in the `mantine` cascade layer (the `.layer.css` files), so the app's
 * own rules win over it whichever chunk arrives first. The dev server pre-bundles Mantine
 * without plugins, so there the whole stylesheet is loaded.
 */
function mantineStylesPerComponent(): Plugin {
  let serving = false;
  return {
    name: 'refract-mantine-styles-per-component',
    configResolved(config) {
      serving = config.command === 'serve';
    },
    transform(code, id) {
      if (serving)
        return id.endsWith('/src/main.tsx')
          ? `import '@mantine/core/styles.layer.css';\n${code}`
          : null;
      const component = id.match(/@mantine\/core\/esm\/.+\/(\w+)\.module\.css\.mjs$/)?.[1];
      return component ? `import '@mantine/core/styles/${component}.layer.css';\n${code}` : null;
    },
  };
}

export default defineConfig({
  plugins: [
    // React itself (decision 026): JSX for React 19 and Fast Refresh in the dev server.
    react(),
    pureContractConstants(),
    mantineStylesPerComponent(),
    precompress(),
    nonBlockingStylesheet(),
    appPreload(),
  ],
  resolve: { alias: { '@refract/contracts': contracts } },
  server: {
    port: 5173,
    // In development the API runs on its own port; the built app is served by the API itself.
    proxy: { '/api': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1200,
    rollupOptions: {
      output: {
        // Named so a reader of the network log (and e2e/first-load.spec.ts) tells them apart.
        chunkFileNames: ({ facadeModuleId }) =>
          facadeModuleId?.includes('/locales/legal/')
            ? 'assets/legal-[name]-[hash].js'
            : facadeModuleId?.includes('/locales/')
              ? 'assets/locale-[name]-[hash].js'
              : 'assets/[name]-[hash].js',
      },
    },
  },
});
