/**
 * The first screen's weight: the JavaScript a browser must load before the first screen (the entry chunk and its static
 * imports, read from Vite's manifest) stays within 150 KiB gzip with every screen built. The screens are split by
 * route (ui/src/app/lazy-page.ts); a static import of a heavy screen from the shell pulls it back into the entry
 * and fails here. The UI is built into a temporary folder, so ui/dist (served by the e2e tests) is left alone.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIAL_JS_BUDGET_BYTES, kib, measureInitialJs } from '../../ui/initial-js';

const root = fileURLToPath(new URL('../..', import.meta.url));
let outDir: string;

beforeAll(() => {
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coi-ui-size-'));
  // A child process like `npm run build:ui`: inside Vitest NODE_ENV is "test", which would build React's development files.
  const env = { ...process.env, NODE_ENV: 'production' };
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'ui/vite.config.ts',
    '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], { cwd: root, env, stdio: 'inherit' });
}, 180_000);

afterAll(() => { if (outDir) fs.rmSync(outDir, { recursive: true, force: true }); });

describe('UI bundle size', () => {
  it('initial JS (entry + static imports) is at most 150 KiB gzip', () => {
    const initial = measureInitialJs(outDir);
    console.log(`[ui-bundle-size] initial JS: ${kib(initial.gzipBytes)} gzip (${kib(initial.rawBytes)} raw) in ${initial.files.length} files: ${initial.files.join(', ')}`);
    expect(initial.gzipBytes).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
  });

  it('the login page, the dashboard and the other screens are chunks of their own, loaded on demand', () => {
    const initial = measureInitialJs(outDir);
    const assets = fs.readdirSync(path.join(outDir, 'assets'));
    for (const screen of ['login-page', 'dashboard-page', 'registration-page', 'request-view-page']) {
      const chunk = assets.find((file) => file.startsWith(`${screen}-`) && file.endsWith('.js'));
      expect(chunk, `${screen} chunk`).toBeDefined();
      expect(initial.files).not.toContain(`assets/${chunk}`);
    }
  });
});
