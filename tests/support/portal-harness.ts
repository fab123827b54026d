/**
 * The whole portal in one test process (devtools/portal-in-process.ts) on the run's parts: the test file's own
 * database (tests/support/file-database.ts), the Temporal dev server and the workflow bundle global setup made once,
 * an SMTP sink, Chromium, a file store in a temp folder, a worker on a task queue of its own, and the API.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { fileDatabaseUrl } from './file-database';
import { startPortalInProcess, type PortalInProcess } from '../../devtools/portal-in-process';
import { ChromiumPdfRenderer } from '../../activities/pdf/chromium-pdf-renderer';
import { LETTER_CHROMIUM_PATH } from '../../config/app-config';
import type { SmtpSink } from '../../devtools/smtp-sink';

export interface Harness extends PortalInProcess {
  sink: SmtpSink;
}

const GENEROUS_QUOTAS = { OPEN_DRAFTS_QUOTA: '100000', MESSAGES_PER_HOUR_QUOTA: '100000', UPLOAD_MB_PER_DAY_QUOTA: '100000', UPLOADS_AT_ONCE: '100000' };

/** The quotas a portal runs with by default (for the harness of a test that proves them). */
export const DEFAULT_QUOTAS_ENV = { OPEN_DRAFTS_QUOTA: '', MESSAGES_PER_HOUR_QUOTA: '', UPLOAD_MB_PER_DAY_QUOTA: '', UPLOADS_AT_ONCE: '' };

/** Forgets every rate-limit counter (sign-in failures, route limits): "the window passing" in tests. */
export async function resetRateLimits(sql: { getConnection(): { execute(sql: string, params: unknown[], method: 'run'): Promise<unknown> } }): Promise<void> {
  await sql.getConnection().execute('delete from "rate_limit_counters"', [], 'run');
}

/**
 * The letters' Chromium, one per test process for the portals that print with the default one: each portal launching
 * its own cost a browser start (about a second of CPU) in most test files. Its browsers end with the process. A test
 * that names its own CHROMIUM_PATH (one that is missing, say) gets a renderer of its portal's own.
 */
const shared = globalThis as { coiTestPdf?: ChromiumPdfRenderer };
function sharedPdfRenderer(env: Record<string, string | undefined>): ChromiumPdfRenderer | undefined {
  const runChromium = process.env.CHROMIUM_PATH ?? LETTER_CHROMIUM_PATH; // what loadConfig would choose
  if ((env.CHROMIUM_PATH ?? runChromium) !== runChromium) return undefined;
  shared.coiTestPdf ??= new ChromiumPdfRenderer(runChromium);
  return shared.coiTestPdf;
}

export async function startHarness(options: { worker?: boolean; listen?: boolean; databaseUrl?: string; temporalAddress?: string; env?: Record<string, string> } = {}): Promise<Harness> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'coi-harness-'));
  const signing = inject('letterSigning');
  const portal = await startPortalInProcess({
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl ?? fileDatabaseUrl(),
      TEMPORAL_ADDRESS: options.temporalAddress ?? inject('temporalAddress'),
      TEMPORAL_TASK_QUEUE: `test-${randomBytes(4).toString('hex')}`,
      DATA_DIR: dataDir,
      PORT: '0',
      // A file's tests share a few accounts: per-user quotas would refuse the 26th draft of the development
      // requester. tests/api/abuse-limits.test.ts runs with the real ones.
      ...GENEROUS_QUOTAS,
      // The run's development certificate (global setup), as an office installs its own.
      LETTER_SIGNING_P12: signing.p12,
      LETTER_SIGNING_P12_PASSWORD: signing.password,
      ...options.env,
    },
    worker: options.worker,
    listen: options.listen,
    poolMax: 5,
    // Bundled once for the run by global setup: bundling at each worker start cost seconds of CPU per file.
    workflowBundlePath: inject('workflowBundlePath'),
    sharedPdf: sharedPdfRenderer(options.env ?? {}),
  }).catch(async (error) => { await rm(dataDir, { recursive: true, force: true }); throw error; });
  // Rate-limit counters live in the database: a second harness of a file starts with none, as a fresh portal would.
  await resetRateLimits(portal.orm.em);
  return {
    ...portal,
    sink: portal.sink!,
    async stop() {
      await portal.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
