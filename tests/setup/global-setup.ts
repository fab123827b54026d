/**
 * Vitest globalSetup (root level, once per run; see vitest.config.ts):
 *  - creates a fresh database `coi_test_<pid>_<random>` on DATABASE_URL's server (default
 *    postgres://postgres@127.0.0.1:5432; when nothing answers there, a throwaway embedded PostgreSQL 15 started for
 *    the run and removed after it: devtools/postgres/embedded-postgres.ts), migrates and seeds it (db/prepare-database.ts);
 *  - starts an in-memory, headless Temporal dev server on a free port with the portal's search attributes
 *    (or reuses TEMPORAL_TEST_ADDRESS);
 *  - bundles the workflow code once (`workflowBundlePath`): every test worker loads it instead of bundling at its
 *    start (seconds of CPU each time, once per test file);
 *  - provides `databaseUrl` and `temporalAddress` (tests: `inject('databaseUrl')`), and also exports them as
 *    DATABASE_URL / TEMPORAL_ADDRESS plus a temporary DATA_DIR, so code calling loadConfig() in the forked test
 *    processes can never touch the development database or data/;
 *  - exports DATABASE_CONNECT_TIMEOUT_MS=30000 (unless set): on a busy machine a new connection may take longer than
 *    the 5 s the portal allows by default, and a slow connect is not what any test is about;
 *  - teardown stops the server, drops the database and removes the temporary directory.
 * Databases left behind by killed runs (their pid is gone) are dropped at the next start.
 * Skipped when only the `domain` and `ui` projects run (no database, no server).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { prepareDatabase } from '../../db/prepare-database';
import { defaultDatabaseUrl } from '../../config/app-config';
import { dropDatabase, dropOrphanedDatabases } from '../../db/database';
import { ensurePostgres, usesDefaultDatabase } from '../../devtools/postgres/embedded-postgres';
import { ensureTemporalServer, freePort, type TemporalServerHandle } from '../../devtools/temporal/dev-server';
import { cachedWorkflowBundle } from '../../devtools/temporal/workflow-bundle';
import { buildProduction, type BuildResult } from '../../scripts/build';
import { DEVELOPMENT_SIGNER_NAME, makeSelfSignedP12 } from '../../activities/pdf/letter-signing-key';

/** Projects that need neither PostgreSQL nor Temporal. */
const PURE_PROJECTS: ReadonlySet<string> = new Set(['domain', 'ui']);

const log = (line: string) => console.log(`[test-setup] ${line}`);

function serverUrl(): URL {
  const url = new URL(process.env.DATABASE_URL ?? defaultDatabaseUrl(process.env, 'postgres'));
  url.pathname = '/postgres';
  url.search = '';
  return url;
}

/**
 * On a busy machine PostgreSQL may take longer to accept a connection than db/database.ts waits (its connect timeout,
 * 5 s by default, so that a developer with no server learns it at once): the run asks again until it answers, for two
 * minutes.
 */
async function whenPostgresAnswers<T>(step: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      return await step();
    } catch (error) {
      if (!/does not answer/.test((error as Error).message) || Date.now() > deadline) throw error;
      log(`PostgreSQL is slow to answer (${(error as Error).message.split('\n')[0]}): asking again`);
    }
  }
}

export default async function setup(project: TestProject) {
  const selected = project.vitest.projects.map((p) => p.name);
  if (selected.length > 0 && selected.every((name) => PURE_PROJECTS.has(name))) return undefined;

  process.env.DATABASE_CONNECT_TIMEOUT_MS ??= '30000';
  const started = Date.now();
  // No server at the default address: a throwaway embedded cluster for this run.
  const postgres = await ensurePostgres({
    databaseUrl: serverUrl().toString(), isDefault: usesDefaultDatabase(), persistent: false,
    clusterDir: path.join(os.tmpdir(), `coi-test-pg-${process.pid}-${randomBytes(4).toString('hex')}`), log,
  });
  await dropOrphanedDatabases(serverUrl().toString(), 'coi_test_');
  const dbUrl = serverUrl();
  dbUrl.pathname = `/coi_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const databaseUrl = dbUrl.toString();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coi-test-data-'));

  // The production build (scripts/build.ts) the tests that start dist/ processes share, made once for the run: each
  // made its own (esbuild, and the workflows bundled again in a tsx process) at several seconds of CPU apiece. Named
  // dist-test-*, one level below the root as dist/ is, which ESLint skips.
  const productionDir = path.resolve(import.meta.dirname, '../..', `dist-test-run-${process.pid}`);
  let temporal = null as TemporalServerHandle | null;
  const teardown = async () => {
    await temporal?.stop().catch((error) => log(`stopping Temporal failed: ${(error as Error).message}`));
    await dropDatabase(databaseUrl).catch((error) => log(`dropping ${dbUrl.pathname.slice(1)} failed: ${(error as Error).message}`));
    await postgres.stop().catch((error) => log(`stopping the embedded PostgreSQL failed: ${(error as Error).message}`));
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(productionDir, { recursive: true, force: true });
  };

  try {
    let workflowBundlePath = '';
    const [, production, server] = await Promise.all([
      whenPostgresAnswers(() => prepareDatabase(databaseUrl)),
      (async (): Promise<BuildResult> => {
        // The bundle `npm start` keeps too (devtools/temporal/workflow-bundle.ts): made again only when a file in it changed.
        workflowBundlePath = await cachedWorkflowBundle({ log });
        // The build's own workflow bundle would be this one made again: copied instead.
        const built = await buildProduction({ outDir: productionDir, typecheck: false, workflowBundle: false, log: () => {} });
        fs.copyFileSync(workflowBundlePath, path.join(productionDir, 'workflow-bundle.js'));
        return { ...built, files: [...built.files, 'workflow-bundle.js'].sort() };
      })(),
      (async () => {
        const reuse = process.env.TEMPORAL_TEST_ADDRESS;
        const address = reuse ?? `127.0.0.1:${await freePort()}`;
        temporal = await ensureTemporalServer({
          address,
          log: (line) => { if (!line.startsWith('[temporal]')) log(line); },
        });
        return temporal;
      })(),
    ]);

    project.provide('databaseUrl', databaseUrl);
    project.provide('temporalAddress', server.address);
    project.provide('workflowBundlePath', workflowBundlePath);
    project.provide('productionBuild', production);
    const axeShapesDir = path.join(dataDir, 'axe-shapes');
    fs.mkdirSync(axeShapesDir);
    project.provide('axeShapesDir', axeShapesDir);
    // One development signing certificate for the run's portals: made at each portal's first start it cost a 2048-bit
    // key and a certificate signed in JavaScript (120-200 ms of CPU) a hundred times a run.
    const signingPassword = randomBytes(12).toString('base64url');
    project.provide('letterSigning', { p12: makeSelfSignedP12(DEVELOPMENT_SIGNER_NAME, signingPassword).toString('base64'), password: signingPassword });
    process.env.DATABASE_URL = databaseUrl;
    process.env.TEMPORAL_ADDRESS = server.address;
    process.env.DATA_DIR = dataDir;
    log(`database ${dbUrl.pathname.slice(1)} + Temporal ${server.address} + workflow bundle ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (error) {
    await teardown();
    throw error;
  }

  return teardown;
}
