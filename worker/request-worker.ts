/**
 * Builds the workers that run request workflows and their activities: one on the request task queue (workflows,
 * status records, emails) and one on the letters queue (Chromium PDFs, two activities per renderer lane).
 * Used by `worker/worker.ts` (the process `npm start` and the worker image run) and by tests and the bench.
 */
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { fileURLToPath } from 'node:url';
import { createActivities, createLetterActivities, type ActivityDeps } from '../activities';
import { createInboundMailActivities } from '../mail-in/processing';
import type { ReplyTextReader } from '../mail-in/processing/reply-text-reader';
import { letterTaskQueue } from '../workflows/request.messages';
import { reqIdActivityInterceptor } from './worker-logging';
import { retryWindowInterceptor } from './retry-window';
import { WebhookDispatcher } from './webhook-dispatcher';

const WORKFLOWS_PATH = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));
/** Loaded into every workflow: the command's reqId follows it into its activities (workflows/log-context.ts). */
const WORKFLOW_INTERCEPTOR_MODULES = [fileURLToPath(new URL('../workflows/log-context.ts', import.meta.url))];
/**
 * Pure modules every workflow run uses, evaluated once per worker thread and shared by every run instead of once per
 * run (the SDK's reusable V8 context evaluates the bundle's modules again for each new run: a submit starts one).
 * Only modules that keep no per-run state and read no clock or randomness at load may be listed: the lifecycle
 * machine (and xstate under it), the status, template and clock rules. Their module-level memos (time-zone
 * formatters, day boundaries) hold pure results, the same for every run.
 */
const domainModule = (name: string) => fileURLToPath(new URL(`../domain/${name}.ts`, import.meta.url));
const WORKFLOW_PRELOAD_MODULES = ['request-lifecycle.machine', 'request-status', 'notification-template', 'request-clocks'].map(domainModule);
/** What `bundleWorkflowCode` needs to build the bundle the workers load (devtools/temporal/build-workflow-bundle.ts). */
export const WORKFLOW_BUNDLE_OPTIONS = {
  workflowsPath: WORKFLOWS_PATH, workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES, preloadModules: WORKFLOW_PRELOAD_MODULES,
};
/** What a worker, the bundle build and a replay need to load the workflows the same way. */
export const WORKFLOW_SOURCE = {
  workflowsPath: WORKFLOWS_PATH, interceptors: { workflowModules: WORKFLOW_INTERCEPTOR_MODULES },
  bundlerOptions: { preloadModules: WORKFLOW_PRELOAD_MODULES },
};

interface RequestWorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  deps: ActivityDeps & { replies?: ReplyTextReader };
  /** A prebuilt bundle (production image); otherwise the workflows are bundled at start-up. */
  workflowBundlePath?: string;
  /**
   * Runs workflow code on the main thread instead of the SDK's worker threads, so a CPU profile of the main thread
   * sees it (bench `--profile 2`). Never in production: it also turns off the SDK's deadlock detection.
   */
  workflowsOnMainThread?: boolean;
}

export class RequestWorkers {
  constructor(private readonly connection: NativeConnection, readonly workers: Worker[], private readonly webhooks?: WebhookDispatcher) {}

  async run(): Promise<void> {
    try {
      // The webhook deliveries the database owes are started while the workers run (worker/webhook-dispatcher.ts).
      await this.webhooks?.start().catch((error) => console.warn(`webhook dispatcher not started: ${(error as Error).message}`));
      await Promise.all(this.workers.map((w) => w.run()));
    } finally {
      await this.webhooks?.stop();
      await this.connection.close();
    }
  }

  shutdown(): void {
    for (const worker of this.workers) {
      if (worker.getState() === 'RUNNING') worker.shutdown();
    }
  }
}

export async function createRequestWorker(options: RequestWorkerOptions): Promise<RequestWorkers> {
  const connection = await NativeConnection.connect({ address: options.address });
  const workflowSource: Pick<WorkerOptions, 'workflowsPath' | 'workflowBundle' | 'interceptors' | 'bundlerOptions'> = options.workflowBundlePath
    ? { workflowBundle: { codePath: options.workflowBundlePath } }
    : WORKFLOW_SOURCE; // a prebuilt bundle has the interceptor modules in it (devtools/temporal/build-workflow-bundle.ts)
  const activityInterceptors = [reqIdActivityInterceptor, retryWindowInterceptor(options.deps.config.effectRetryWindowMs)];
  const requests = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    // The request work, and the replies by email the mail-in door received (their workflows run on this queue).
    activities: { ...createActivities(options.deps), ...createInboundMailActivities(options.deps) },
    ...workflowSource,
    // After the spread: the workflow source's own `interceptors` (its modules) must not replace the activity ones.
    interceptors: { ...workflowSource.interceptors, activity: activityInterceptors },
    ...(options.workflowsOnMainThread ? { debugMode: true } : {}),
    maxConcurrentActivityTaskExecutions: 20,
    // Bounded: thousands of open requests wait on timers; the ones not in memory replay from history when they wake
    // (bench/timers.bench.ts: RSS stays flat from 1,000 to 10,000 open workflows).
    maxCachedWorkflows: options.deps.config.maxCachedWorkflows,
  });
  const letters = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: letterTaskQueue(options.taskQueue),
    activities: createLetterActivities(options.deps),
    interceptors: { activity: activityInterceptors },
    // Four activities per Chromium lane: a decision's email is sent by its letter's activity, so while
    // one prints, others store their PDFs or talk to the mail server (the rest wait for a free lane, heartbeating; with
    // two per lane the emails queued behind the prints, bench/README.md "third round"). Its own queue, so a backlog
    // never delays a status save.
    maxConcurrentActivityTaskExecutions: options.deps.pdf.maxConcurrent * 4,
  });
  const { config } = options.deps;
  const webhooks = new WebhookDispatcher({
    databaseUrl: config.databaseUrl, temporalAddress: options.address, namespace: options.namespace, taskQueue: options.taskQueue, settings: config.webhooks,
  });
  return new RequestWorkers(connection, [requests, letters], webhooks);
}
