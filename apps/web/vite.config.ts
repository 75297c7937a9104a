import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const apiTarget = process.env.SCEAU_API_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: { '/api': { target: apiTarget, changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // .vite/manifest.json: which chunks each entry and page loads, read by `npm run size`.
    manifest: true,
    rolldownOptions: {
      // The workspace packages are pure modules (constants, zod schemas, codecs): what a chunk does
      // not use is left out. Without this, the entry carried all of zod for a few constants.
      treeshake: { moduleSideEffects: [{ test: /[\\/]packages[\\/](contracts|credential|i18n)[\\/]src[\\/]/, sideEffects: false }] },
    },
  },
  test: {
    name: 'web',
    root: fileURLToPath(new URL('.', import.meta.url)),
    environment: 'jsdom',
    setupFiles: [fileURLToPath(new URL('./src/test/setup.ts', import.meta.url))],
    restoreMocks: true,
    unstubGlobals: true,
    css: false,
  },
});
