/**
 * `npm test` → `npm run test:run -- [vitest args]`: builds the UI (the e2e tests serve it), then lints (ESLint,
 * eslint.config.js: a lint error counts as one failed test and is printed) and type-checks everything (tsc) while it
 * runs every Vitest project once with the default reporter plus a JSON report in test-results/vitest.json, and ends with the line
 * `N passed, N failed` that CI reads. Exit code 0 only when nothing failed.
 *   npm test -- --project e2e            one project
 *   npm test -- tests/workflows          one folder
 *   npm test -- tests/api/auth.test.ts   one file
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const jsonReport = path.join(root, 'test-results', 'vitest.json');
const bin = (pkg: string, file: string) => path.join(root, 'node_modules', pkg, file);
/**
 * What ESLint and tsc keep between runs of this checkout: a file whose text (and, for tsc, whose imports) did not
 * change is not linted or checked again. Inside node_modules, so a fresh clone starts without and a reinstall clears it.
 */
const checkCache = path.join(root, 'node_modules', '.cache', 'coi-portal');

function run(args: string[], label: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: process.env });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', (error) => {
      console.error(`[test] could not run ${label}: ${error.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

interface JsonReport {
  numPassedTests?: number;
  numFailedTests?: number;
  numTotalTests?: number;
  success?: boolean;
  testResults?: Array<{ name: string; status: string; message?: string; assertionResults?: Array<{ status: string }> }>;
}

/** ESLint over the repository; prints the errors (warnings are counted; `npm run lint` lists them). */
async function lint(): Promise<boolean> {
  const started = Date.now();
  console.log('[test] linting (eslint)…');
  try {
    const { ESLint } = await import('eslint');
    // Every rule here reads one file at a time (no type-aware or cross-file rules), so a result kept for unchanged
    // text is the result a new lint would give; ESLint drops the cache itself when its version or the config changes.
    const eslint = new ESLint({ cwd: root, cache: true, cacheStrategy: 'content', cacheLocation: path.join(checkCache, 'eslint') });
    const results = await eslint.lintFiles(['.']);
    const errors = results.reduce((n, r) => n + r.errorCount + r.fatalErrorCount, 0);
    const warnings = results.reduce((n, r) => n + r.warningCount, 0);
    if (errors > 0) {
      const formatter = await eslint.loadFormatter('stylish');
      console.error(await formatter.format(ESLint.getErrorResults(results)));
    }
    const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
    const warned = warnings ? `, ${warnings} warning${warnings === 1 ? '' : 's'} (npm run lint lists them)` : '';
    if (errors > 0) console.error(`[test] lint FAILED: ${errors} error${errors === 1 ? '' : 's'}${warned} in ${took} (counted as one failure)`);
    else console.log(`[test] lint: no errors${warned} in ${took}`);
    return errors === 0;
  } catch (error) {
    console.error(`[test] ESLint could not run (counted as one failure): ${(error as Error).stack ?? error}`);
    return false;
  }
}

/**
 * `tsc --noEmit -p .` over every folder (ui/src and tests included), incremental; its errors are printed. The check is
 * TypeScript 7's native compiler (package typescript-native): a quarter of 5.9's CPU for the same program, one thread so
 * that it takes only the CPU the tests leave. TypeScript 5.9 stays installed as `typescript` for typescript-eslint's
 * parser, which needs its JavaScript API.
 */
async function typecheck(): Promise<boolean> {
  const started = Date.now();
  console.log('[test] type-checking (tsc)…');
  const buildInfo = path.join(checkCache, 'tsconfig.tsbuildinfo');
  const code = await run(
    [bin('typescript-native', 'bin/tsc'), '--noEmit', '-p', 'tsconfig.json', '--singleThreaded', '--incremental', '--tsBuildInfoFile', buildInfo],
    'tsc',
  );
  const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
  if (code !== 0) console.error(`[test] type check FAILED in ${took} (counted as one failure)`);
  else console.log(`[test] types: no errors in ${took}`);
  return code === 0;
}

/** The e2e tests serve ui/dist. */
async function buildUi(): Promise<boolean> {
  if (!fs.existsSync(path.join(root, 'ui', 'vite.config.ts'))) return true;
  const started = Date.now();
  console.log('[test] building the UI (vite build)…');
  const code = await run([bin('vite', 'bin/vite.js'), 'build', '--config', 'ui/vite.config.ts', '--logLevel', 'warn'], 'vite build');
  if (code !== 0) console.error('[test] the UI build failed (counted as one failure); running the tests anyway');
  else console.log(`[test] UI built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return code === 0;
}

async function main() {
  const extraArgs = process.argv.slice(2);
  let extraFailures = 0;

  // The e2e tests serve ui/dist: it is built first (about a second). Lint and the type check then run beside the
  // tests: they take CPU that would otherwise come before the first test. The type check is what makes
  // a drift between the API's schemas (contract/) and the UI that uses their types fail `npm test`, since neither
  // vite nor vitest checks types.
  if (!(await buildUi())) extraFailures += 1;
  fs.mkdirSync(path.dirname(jsonReport), { recursive: true });
  fs.mkdirSync(checkCache, { recursive: true });
  fs.rmSync(jsonReport, { force: true });
  const tests = run(
    [bin('vitest', 'vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${jsonReport}`, ...extraArgs],
    'vitest',
  );
  // Lint and the type check take the CPU the tests leave idle (they wait on timers, Temporal and Chromium): this
  // process, and the tsc it starts next, run at the lowest priority from here on; vitest, started above, keeps its own.
  try { os.setPriority(19); } catch { /* not allowed here: they share the CPU as equals */ }
  const [lintOk, typesOk, vitestCode] = await Promise.all([lint(), typecheck(), tests]);
  if (!lintOk) extraFailures += 1;
  if (!typesOk) extraFailures += 1;

  let passed = 0;
  let failed = extraFailures;
  if (fs.existsSync(jsonReport)) {
    const report = JSON.parse(fs.readFileSync(jsonReport, 'utf8')) as JsonReport;
    passed = report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    // A file that failed without a failed test (import error, failing beforeAll/afterAll) counts once.
    for (const file of report.testResults ?? []) {
      const failedTests = (file.assertionResults ?? []).filter((a) => a.status === 'failed').length;
      if (file.status === 'failed' && failedTests === 0) {
        failed += 1;
        console.error(`[test] ${path.relative(root, file.name)} failed outside its tests${file.message ? `: ${file.message.split('\n')[0]}` : ''}`);
      }
    }
    if (vitestCode !== 0 && failed === 0) {
      failed = 1;
      console.error(`[test] vitest exited with code ${vitestCode} without a failed test (unhandled error, no test files, or a setup failure: see above)`);
    }
  } else {
    failed = Math.max(failed, 1);
    console.error(`[test] vitest wrote no report (exit code ${vitestCode}): it failed before running tests (see above)`);
  }

  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || vitestCode !== 0 ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
