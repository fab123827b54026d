/**
 * The whole portal in one test process, on real parts: the test database and Temporal dev server from global
 * setup, an SMTP sink, Chromium, a file store in a temp folder, a worker on a task queue of its own, and the API.
 */

import type { Client } from '@temporalio/client';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { buildApp } from '../../api/app';
import { createMailer } from '../../activities/mailer';
import { ChromiumPdfRenderer } from '../../activities/pdf/chromium-pdf-renderer';
import { loadConfig, type AppConfig } from '../../config/app-config';
import { createOrm, type Orm } from '../../db/orm';
import { startSmtpSink, type SmtpSink } from '../../devtools/smtp-sink';
import { DocumentFiles } from '../../storage/document-files';
import { createTemporalClient } from '../../temporal/connection';
import { createRequestWorker, type RequestWorkers } from '../../temporal/request-worker';

export interface Harness {
  config: AppConfig;
  orm: Orm;
  temporal: Client;
  sink: SmtpSink;
  files: DocumentFiles;
  pdf: ChromiumPdfRenderer;
  app: Awaited<ReturnType<typeof buildApp>>;
  worker: RequestWorkers | null;
  /** http://127.0.0.1:<port> when started with `listen: true` */
  baseUrl: string | null;
  stop(): Promise<void>;
}

const GENEROUS_QUOTAS = { OPEN_DRAFTS_QUOTA: '100000', MESSAGES_PER_HOUR_QUOTA: '100000', UPLOAD_MB_PER_DAY_QUOTA: '100000' };

/** The quotas a portal runs with by default (for the harness of a test that proves them). */
export const DEFAULT_QUOTAS_ENV = { OPEN_DRAFTS_QUOTA: '', MESSAGES_PER_HOUR_QUOTA: '', UPLOAD_MB_PER_DAY_QUOTA: '' };

/** Forgets every rate-limit counter (sign-in failures, route limits): "the window passing" in tests. */
export async function resetRateLimits(sql: { getConnection(): { execute(sql: string, params: unknown[], method: 'run'): Promise<unknown> } }): Promise<void> {
  await sql.getConnection().execute('delete from "rate_limit_counters"', [], 'run');
}

export async function startHarness(options: { worker?: boolean; listen?: boolean; databaseUrl?: string; temporalAddress?: string; env?: Record<string, string> } = {}): Promise<Harness> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'coi-harness-'));
  const sink = await startSmtpSink();
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: options.databaseUrl ?? inject('databaseUrl'),
    TEMPORAL_ADDRESS: options.temporalAddress ?? inject('temporalAddress'),
    TEMPORAL_TASK_QUEUE: `test-${randomBytes(4).toString('hex')}`,
    SMTP_URL: sink.url,
    DATA_DIR: dataDir,
    PORT: '0',
    // The run's files share one database and a few accounts: per-user quotas would refuse the 26th draft of the
    // development requester. tests/api/abuse-limits.test.ts runs with the real ones.
    ...GENEROUS_QUOTAS,
    ...options.env,
  });
  const orm = await createOrm(config.databaseUrl, { poolMax: 5 });
  // Rate-limit counters live in the run's shared database: each file starts with none, as a fresh portal would.
  await resetRateLimits(orm.em);
  // Lazy, as the API server's: a harness may start before its Temporal does (tests/workflows/api-without-temporal.test.ts).
  const temporal = await createTemporalClient(config.temporalAddress, config.temporalNamespace, { lazy: true });
  const files = await new DocumentFiles(config.uploadsDir).init();
  const mailer = createMailer(config.smtpUrl!);
  const pdf = new ChromiumPdfRenderer(config.chromiumPath);

  let worker: RequestWorkers | null = null;
  let running: Promise<void> | null = null;
  if (options.worker !== false) {
    worker = await createRequestWorker({
      address: config.temporalAddress, namespace: config.temporalNamespace, taskQueue: config.taskQueue,
      deps: { orm, mailer, pdf, files, config },
    });
    running = worker.run();
  }
  const app = await buildApp({ config, orm, temporal, files });
  let baseUrl: string | null = null;
  if (options.listen) {
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = address;
    config.publicUrl = address;
  }
  return {
    config, orm, temporal, sink, files, pdf, app, worker, baseUrl,
    async stop() {
      await app.close();
      if (worker) { worker.shutdown(); await running; }
      await temporal.connection.close();
      mailer.close();
      await pdf.close();
      await orm.close();
      await sink.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
