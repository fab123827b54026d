/**
 * The worker's metrics, served on METRICS_PORT: the Temporal SDK's own (workflow and activity
 * task latencies, slots, cache; its core runtime exports them on a private loopback port, appended here), the
 * portal's effects still pending and failed (from PostgreSQL at each scrape: the same for every worker), letters
 * printed by this worker, and Node's process metrics.
 */
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { activityMetrics } from '../activities/metrics';
import { kysely } from '../db/kysely';
import type { Orm } from '../db/orm';
import { startMetricsServer, type MetricsServer } from '../temporal/metrics-server';

function workerMetricsRegistry(orm: Orm): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'coi_worker_' });
  const effects = new Gauge({
    name: 'coi_effects', help: 'Emails and letters owed by requests, by state (pending: not yet out; failed: needs Send again)',
    labelNames: ['state'] as const, registers: [registry],
    async collect() {
      const rows = await kysely(orm.em.fork()).selectFrom('request_effects')
        .select((eb) => ['state', eb.fn.countAll<string>().as('n')]).where('state', 'in', ['pending', 'failed']).groupBy('state').execute();
      this.reset();
      this.set({ state: 'pending' }, 0);
      this.set({ state: 'failed' }, 0);
      for (const row of rows) this.set({ state: row.state }, Number(row.n));
    },
  });
  void effects;
  return Registry.merge([registry, activityMetrics]);
}

/** Serves the worker's registry and, after it, what the SDK's exporter at `sdkMetricsUrl` answers. */
export function startWorkerMetricsServer(orm: Orm, host: string, port: number, sdkMetricsUrl: string): Promise<MetricsServer> {
  return startMetricsServer(workerMetricsRegistry(orm), host, port, async () => (await fetch(sdkMetricsUrl, { signal: AbortSignal.timeout(2000) })).text());
}
