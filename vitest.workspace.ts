/**
 * The test projects. Vitest 4+ ignores this file by itself: vitest.config.ts imports `projects` and passes it to
 * `test.projects`, so this stays the single list (STACK-NOTES "Vitest").
 *
 * Shared test infrastructure: vitest.config.ts declares ONE root-level globalSetup (tests/setup/global-setup.ts)
 * that creates a fresh database and an in-memory Temporal dev server for the whole run and provides
 * `databaseUrl` and `temporalAddress` to every project (`inject('databaseUrl')`). It is not repeated per
 * project (that would start one database + server per project).
 *
 * Run one project: `npx vitest run --project integration`; one folder: `npx vitest run tests/api`.
 */
import type { TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Files run three at a time (TEST_WORKERS changes it), in ONE group for every project (`groupOrder` 1 everywhere):
 * one project after another, the longest files first (tests/setup/longest-first.ts), and the short domain and UI
 * files fill the gaps at the end instead of running alone before the rest. Much of an integration file's time is spent waiting on Temporal's
 * timers, Chromium or the mail sink: on 2 cores, three files at a time left the CPU 8.5 % idle and took 508 s where
 * two took 598 s.
 */
const WORKERS = Number(process.env.TEST_WORKERS ?? 3);
const oneGroup = { maxWorkers: WORKERS, sequence: { groupOrder: 1 } } as const;

/**
 * Settings for projects that talk to PostgreSQL, Temporal, SMTP or Chromium, in child processes. Each file runs on a
 * database of its own (tests/setup/file-database.ts) and a task queue of its own, so files run side by side.
 */
const integration = {
  pool: 'forks',
  ...oneGroup,
  // A worker process runs file after file without loading our server code and its packages again for each (that
  // was 151 s of import over 108 files). Each file still gets its own database, portal and Temporal task queue (the
  // setup files run again for every file), and nothing in the server code keeps state between portals.
  isolate: false,
  testTimeout: 120_000,
  hookTimeout: 180_000,
  // `expect.poll` waits for an event (a page showing a value, a row written): a bound that holds on a slower, busy
  // machine (Vitest's default is 1 s), asked every 100 ms rather than 50 (each ask is a round trip to Chromium or
  // PostgreSQL).
  expect: { poll: { timeout: 30_000, interval: 100 } },
  setupFiles: ['tests/setup/file-cpu.ts', 'tests/setup/quiet-temporal.ts', 'tests/setup/file-database.ts'] as string[],
  // TEST_CPU_PROF=<dir>: a V8 CPU profile of each worker process's main thread (bench/cpu-profile-summary.mjs reads them).
  execArgv: process.env.TEST_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.TEST_CPU_PROF}`] : [],
} as const;

export const projects: TestProjectInlineConfiguration[] = [
  {
    test: {
      name: 'domain',
      include: ['tests/domain/**/*.test.ts', 'domain/**/*.test.ts'],
      environment: 'node',
      // Pure functions, no state between files: one process runs them one after another.
      isolate: false,
      ...oneGroup,
    },
  },
  // The API, workflow and infrastructure tests share one project: a worker process runs files of one project only, so
  // three projects of the same settings were three sets of worker processes (up to nine), each loading the server code
  // and its packages again, and three transforms of that code in the main process. One folder alone:
  // `npx vitest run tests/workflows`.
  {
    test: {
      name: 'integration',
      include: ['tests/api/**/*.test.ts', 'tests/workflows/**/*.test.ts', 'tests/infra/**/*.test.ts'],
      ...integration,
    },
  },
  // A file's tests run in a shuffled order (the same order for the same seed): each test makes what it needs
  // (tests/support/portal-browser.ts), so an order that differs from the source proves none relies on another's state.
  // E2E_SEED=<n> tries another order.
  {
    test: {
      name: 'e2e', include: ['tests/e2e/**/*.test.ts'], ...integration,
      sequence: { ...integration.sequence, shuffle: { files: false, tests: true }, seed: Number(process.env.E2E_SEED ?? 20261126) },
    },
  },
  // UI component and machine tests: jsdom, the fetch layer mocked, no server (global setup skips them). One process runs
  // its files one after another (a process per file was 28 s of CPU, one 14 s); tests/ui/setup.ts gives each file the UI's
  // modules afresh, so a file's module mocks never meet another's.
  { test: { name: 'ui', include: ['tests/ui/**/*.test.{ts,tsx}'], environment: 'jsdom', setupFiles: 'tests/ui/setup.ts', testTimeout: 15_000, isolate: false, ...oneGroup } },
];

export default projects;
