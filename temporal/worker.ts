/** Worker process entry: `node --import tsx temporal/worker.ts`. */
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { existsSync } from 'node:fs';
import { loadConfig } from '../config/app-config';
import { createActivityDeps } from './activity-deps';
import { createTemporalClient } from './connection';
import { createRequestWorker } from './request-worker';
import { ensureWakeUpSweepSchedule } from './wake-up-sweep';

// INFO-level SDK logs (bundler output, state changes) drown what an operator needs; LOG_LEVEL=INFO brings them back.
Runtime.install({ logger: new DefaultLogger((process.env.LOG_LEVEL?.toUpperCase() as 'INFO') ?? 'WARN') });
const config = loadConfig();
const deps = await createActivityDeps(config);
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
// Wake-ups a crash left behind are found by the sweep: scheduled, and run once now (temporal/wake-up-sweep.ts).
const client = await createTemporalClient(config.temporalAddress, config.temporalNamespace);
await ensureWakeUpSweepSchedule(client, config.taskQueue).catch((error) => console.warn(`wake-up sweep schedule not set: ${(error as Error).message}`));
await client.connection.close();
await worker.run();
await deps.close();
