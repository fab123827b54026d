/** Worker process entry: `node --import tsx temporal/worker.ts`. */
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { existsSync } from 'node:fs';
import { loadConfig } from '../config/app-config';
import { createActivityDeps } from './activity-deps';
import { createRequestWorker } from './request-worker';

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
await worker.run();
await deps.close();
