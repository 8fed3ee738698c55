import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const contracts = fileURLToPath(new URL('../../packages/contracts/src/index.ts', import.meta.url));

/** Text files worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|css|html|json|svg|txt|map)$/;

/**
 * Writes a `.br` and a `.gz` beside each text file of the build, at the highest levels (the
 * work is done once, here), so the server sends them as they are by Accept-Encoding
 * (plugins/web-app.ts) instead of compressing on every request or not at all.
 */
function precompress(): Plugin {
  return {
    name: 'refract-precompress',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (!COMPRESSIBLE.test(file.fileName)) continue;
        const source = file.type === 'chunk' ? file.code : file.source;
        const bytes = typeof source === 'string' ? Buffer.from(source) : Buffer.from(source);
        if (bytes.length < 1024) continue;
        this.emitFile({
          type: 'asset',
          fileName: `${file.fileName}.br`,
          source: brotliCompressSync(bytes, {
            params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
          }),
        });
        this.emitFile({
          type: 'asset',
          fileName: `${file.fileName}.gz`,
          source: gzipSync(bytes, { level: 9 }),
        });
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
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
      // The contracts define their zod schemas at module level, and the pages import constants
      // from the same modules (tool lists, languages): marking zod's builders pure lets Rollup
      // drop the schemas no page uses, and zod with them, instead of keeping every one.
      treeshake: { manualPureFunctions: ['z'] },
    },
  },
});
