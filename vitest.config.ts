/**
 * Vitest entry point. The project list lives in vitest.workspace.ts (Vitest 4+ does not read that file itself).
 * `npm test` runs scripts/run-tests.ts (UI build + all projects + "N passed, N failed");
 * `npx vitest run --project e2e` runs one project, `npx vitest run tests/infra` one folder.
 */
import { defineConfig } from 'vitest/config';
import { projects } from './vitest.workspace.js';
import LongestFirst from './tests/setup/longest-first.js';

export default defineConfig({
  test: {
    projects,
    // Root-level: runs once per `vitest` invocation; its provided values reach every project.
    globalSetup: ['tests/setup/global-setup.ts'],
    // The longest files start first (tests/setup/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    teardownTimeout: 60_000,
  },
});
