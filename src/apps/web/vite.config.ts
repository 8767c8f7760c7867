// Vite configuration of the web client. `npm run build` and `npm start` build through src/apps/web/build.ts (via bin/build.mjs), which uses this file.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  // Everything the page needs is in the bundle: no CDN, no fonts, no network but its own server.
  publicDir: false,
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: '../../../dist/web',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    // The builder's chunk (CodeMirror with its YAML and Markdown modes, ~500 kB, 160 kB gzip) loads only
    // when the builder opens; the play page's chunks stay far below this.
    chunkSizeWarningLimit: 640,
  },
  server: {
    // `vite dev` in src/apps/web talks to `mnesos serve` on its default port.
    proxy: { '/v1': 'http://127.0.0.1:8787', '/healthz': 'http://127.0.0.1:8787' },
  },
});
