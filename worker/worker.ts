/** Worker process entry: `node --import tsx worker/worker.ts`. */
import { Runtime, type LogLevel } from '@temporalio/worker';
import { existsSync } from 'node:fs';
import { loadConfig } from '../config/app-config';
import { createActivityDeps } from './activity-deps';
import { refuseSampleData } from '../db/refuse-sample-data';
import { createTemporalClient } from '../temporal/connection';
import { jsonWorkerLogger } from './worker-logging';
import { createRequestWorker } from './request-worker';
import { freePort } from '../temporal/ports';
import { startWorkerMetricsServer } from './worker-metrics';
import { ensureWakeUpSweepSchedule } from './wake-up-sweep';
import { ensureInstantDigestSchedule } from './instant-digest-schedule';

const config = loadConfig();
// The SDK's own metrics, on a private loopback port; /metrics on METRICS_PORT serves them with the portal's.
const sdkMetricsPort = config.metrics.port ? await freePort() : 0;
// JSON lines with each command's reqId (worker/worker-logging.ts); LOG_LEVEL as the API's (config/app-config.ts).
Runtime.install({
  logger: jsonWorkerLogger(config.logLevel.toUpperCase() as LogLevel),
  ...(sdkMetricsPort ? { telemetryOptions: { metrics: { prometheus: { bindAddress: `127.0.0.1:${sdkMetricsPort}` } } } } : {}),
});
const deps = await createActivityDeps(config);
await refuseSampleData(deps.orm, config.production, () => deps.close());
const metrics = sdkMetricsPort
  ? await startWorkerMetricsServer(deps.orm, config.metrics.host, config.metrics.port, `http://127.0.0.1:${sdkMetricsPort}/metrics`)
  : null;
if (metrics) console.log(`worker metrics on ${metrics.url}`);
const bundlePath = config.workflowBundlePath;
const worker = await createRequestWorker({
  address: config.temporalAddress,
  namespace: config.temporalNamespace,
  taskQueue: config.taskQueue,
  deps,
  workflowBundlePath: bundlePath && existsSync(bundlePath) ? bundlePath : undefined,
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => worker.shutdown());
console.log(`worker polling task queue "${config.taskQueue}" on ${config.temporalAddress}`);
// Wake-ups a crash left behind are found by the sweep: scheduled, and run once now (worker/wake-up-sweep.ts).
const client = await createTemporalClient(config.temporalAddress, config.temporalNamespace);
await ensureWakeUpSweepSchedule(client, config.taskQueue).catch((error) => console.warn(`wake-up sweep schedule not set: ${(error as Error).message}`));
// The office's morning digest of instant certificates (worker/instant-digest-schedule.ts).
await ensureInstantDigestSchedule(client, config.taskQueue, config.clockPolicy.calendar.timeZone)
  .catch((error) => console.warn(`instant digest schedule not set: ${(error as Error).message}`));
await client.connection.close();
await worker.run();
await metrics?.close();
await deps.close();
