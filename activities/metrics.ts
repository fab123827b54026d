/**
 * Counters the worker's activities keep for its `/metrics` (worker/worker-metrics.ts serves them).
 * Per process by nature: Prometheus sums them over the workers.
 */
import { Counter, Registry } from 'prom-client';

export const activityMetrics = new Registry();

export const lettersRendered = new Counter({
  name: 'coi_worker_letters_rendered_total', help: 'Letters and certificates printed by Chromium on this worker',
  registers: [activityMetrics],
});
