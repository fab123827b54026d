import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const uiDir = fileURLToPath(new URL('.', import.meta.url));
const repoDir = fileURLToPath(new URL('..', import.meta.url));
const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:3030';

export default defineConfig({
  root: uiDir,
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // ui/dist/.vite/manifest.json: which chunks the entry loads statically (the initial JS), read by
    // ui/initial-js.ts for the size budget (tests/infra/ui-bundle-size.test.ts, bench/dashboard-browser.bench.ts).
    manifest: true,
  },
  server: {
    // The UI imports the shared rules from ../domain.
    fs: { allow: [repoDir] },
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/saml': { target: apiTarget, changeOrigin: true },
    },
  },
});
