/**
 * Builds the worker that runs request workflows and their activities. Used by `temporal/worker.ts` (the process
 * `npm start` and the worker image run) and by the tests with their own database, SMTP sink and task queue.
 */
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { fileURLToPath } from 'node:url';
import { createActivities, type ActivityDeps } from '../activities';

export const WORKFLOWS_PATH = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

export interface RequestWorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps;
  /** A prebuilt bundle (production image); otherwise the workflows are bundled at start-up. */
  workflowBundlePath?: string;
}

export async function createRequestWorker(options: RequestWorkerOptions): Promise<Worker> {
  const connection = await NativeConnection.connect({ address: options.address });
  const workflowSource: Pick<WorkerOptions, 'workflowsPath' | 'workflowBundle'> = options.workflowBundlePath
    ? { workflowBundle: { codePath: options.workflowBundlePath } }
    : { workflowsPath: WORKFLOWS_PATH };
  return Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    activities: createActivities(options.deps),
    ...workflowSource,
    maxConcurrentActivityTaskExecutions: 20,
  });
}
