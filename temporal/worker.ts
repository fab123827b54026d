/** Worker process entry: `node --import tsx temporal/worker.ts`. */
import { existsSync } from 'node:fs';
import { loadConfig } from '../config/app-config';
import { createActivityDeps } from './activity-deps';
import { createRequestWorker } from './request-worker';

const config = loadConfig();
const deps = await createActivityDeps(config);
const bundlePath = process.env.WORKFLOW_BUNDLE_PATH;
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
