/**
 * The whole portal in one process, on real parts: the API (Fastify, `app.inject` or a port), the request workers on
 * a task queue of the caller's choosing, MikroORM, a lazy Temporal client, a file store, Chromium for letters and an
 * SMTP sink. The one wiring that tests (tests/support/portal-harness.ts) and benches (bench/*.bench.ts) start the
 * portal with; `npm start` runs the same parts as separate processes (scripts/start-portal.ts).
 *
 *   const portal = await startPortalInProcess({ env: { ...process.env, DATABASE_URL, TEMPORAL_ADDRESS, DATA_DIR } });
 *   … portal.app.inject(…) / fetch(portal.baseUrl) …
 *   await portal.stop();
 */
import type { Client } from '@temporalio/client';
import { createMailer, type Mailer } from '../activities/mailer';
import { loadLetterSigner } from '../activities/pdf/letter-signing-key';
import { ChromiumPdfRenderer } from '../activities/pdf/chromium-pdf-renderer';
import { buildApp } from '../api/app';
import { loadConfig, type AppConfig } from '../config/app-config';
import { createOrm, type Orm } from '../db/orm';
import { DocumentFiles } from '../storage/document-files';
import { createTemporalClient } from '../temporal/connection';
import { createRequestWorker, type RequestWorkers } from '../worker/request-worker';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

const SLOW_STOP_MS = 30_000;

interface PortalInProcessOptions {
  /** The settings, as `loadConfig` reads them from an environment (DATABASE_URL, TEMPORAL_ADDRESS, DATA_DIR, …). */
  env: NodeJS.ProcessEnv;
  /** Run the request workers here (default true); false: the API alone, commands wait for a worker elsewhere. */
  worker?: boolean;
  /** A prebuilt workflow bundle (devtools/temporal/build-workflow-bundle.ts); otherwise the workers bundle at start (seconds). */
  workflowBundlePath?: string;
  /** Workflow code on the main thread, for a CPU profile (worker/request-worker.ts). */
  workflowsOnMainThread?: boolean;
  /** Listen on 127.0.0.1 at a free port (`baseUrl`, and the config's public URL); default: `app.inject` only. */
  listen?: boolean;
  /** Start an SMTP sink here and send mail to it (default true); false: env's SMTP_URL, or no mail at all. */
  smtpSink?: boolean;
  /** The ORM's connection pool (default: the ORM's own). */
  poolMax?: number;
  /** A renderer the caller made (a bench prelaunches it); closed by `stop` like the portal's own. */
  pdf?: ChromiumPdfRenderer;
  /** A renderer the caller keeps and closes itself (tests share one per process); `stop` leaves it open. */
  sharedPdf?: ChromiumPdfRenderer;
}

export interface PortalInProcess {
  config: AppConfig;
  orm: Orm;
  temporal: Client;
  /** null with `smtpSink: false` */
  sink: SmtpSink | null;
  /** null when the settings name no SMTP server */
  mailer: Mailer | null;
  files: DocumentFiles;
  pdf: ChromiumPdfRenderer;
  app: Awaited<ReturnType<typeof buildApp>>;
  worker: RequestWorkers | null;
  /** Resolves when the workers stop (after `stop`, or at once when there are none). */
  workerRun: Promise<void>;
  /** http://127.0.0.1:<port> with `listen: true`, else null */
  baseUrl: string | null;
  /** Stops everything it started, the API first, in the reverse order of start. */
  stop(): Promise<void>;
}

export async function startPortalInProcess(options: PortalInProcessOptions): Promise<PortalInProcess> {
  const stops: Array<{ part: string; stop: () => Promise<unknown> | unknown }> = [];
  const stop = async () => {
    for (const { part, stop: stopPart } of stops.splice(0).reverse()) {
      // A part that does not stop would hang its caller without a word: name it while still waiting.
      const slow = setTimeout(() => console.error(`[portal] stopping the ${part} takes more than ${SLOW_STOP_MS / 1000} s`), SLOW_STOP_MS);
      try { await stopPart(); } finally { clearTimeout(slow); }
    }
  };
  try {
    const sink = options.smtpSink === false ? null : await startSmtpSink();
    if (sink) stops.push({ part: 'SMTP sink', stop: () => sink.close() });
    // The caller's SMTP_URL wins over the sink's (a test that points mail at a closed port).
    const config = loadConfig({ ...(sink ? { SMTP_URL: sink.url } : {}), ...options.env });
    const orm = await createOrm(config.databaseUrl, options.poolMax ? { poolMax: options.poolMax } : {});
    stops.push({ part: 'database pool', stop: () => orm.close() });
    // Lazy, as the API server's: the portal starts (and serves what needs no workflow) before its Temporal does.
    const temporal = await createTemporalClient(config.temporalAddress, config.temporalNamespace, { lazy: true });
    stops.push({ part: 'Temporal client', stop: () => temporal.connection.close() });
    const files = await new DocumentFiles(config.uploadsDir).init();
    const mailer = config.smtpUrl ? createMailer(config.smtpUrl) : null;
    if (mailer) stops.push({ part: 'mailer', stop: () => mailer.close() });
    const pdf = options.sharedPdf ?? options.pdf ?? new ChromiumPdfRenderer(config.chromiumPath);
    if (!options.sharedPdf) stops.push({ part: 'PDF renderer', stop: () => pdf.close() });

    let worker: RequestWorkers | null = null;
    let workerRun: Promise<void> = Promise.resolve();
    if (options.worker !== false) {
      if (!mailer) throw new Error('the request workers send mail: give SMTP_URL or keep the SMTP sink');
      worker = await createRequestWorker({
        address: config.temporalAddress, namespace: config.temporalNamespace, taskQueue: config.taskQueue,
        // One signer for the worker's two letter activities (the P12 is read and decrypted once, as in worker/activity-deps.ts).
        deps: { orm, mailer, pdf, files, config, signer: loadLetterSigner(config) },
        workflowBundlePath: options.workflowBundlePath, workflowsOnMainThread: options.workflowsOnMainThread,
      });
      const running = worker.run();
      workerRun = running;
      stops.push({ part: 'request workers', stop: async () => { worker!.shutdown(); await running; } });
    }
    const app = await buildApp({ config, orm, temporal, files });
    stops.push({ part: 'API', stop: () => app.close() });
    let baseUrl: string | null = null;
    if (options.listen) {
      baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
      config.publicUrl = baseUrl;
    }
    return { config, orm, temporal, sink, mailer, files, pdf, app, worker, workerRun, baseUrl, stop };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}
