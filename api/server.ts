/** API process entry: `node --import tsx api/server.ts`. */
import { isLoopbackHost, loadConfig, unsafeListenReason } from '../config/app-config';
import { developmentAccountsRefusal, liveDevelopmentAccounts } from '../services/accounts/development-accounts';
import { createOrm } from '../db/orm';
import { refuseSampleData } from '../db/refuse-sample-data';
import { DocumentFiles } from '../storage/document-files';
import { createTemporalClient } from '../temporal/connection';
import { startMetricsServer } from '../temporal/metrics-server';
import { buildApp } from './app';
import { apiLoggerOptions } from './logging';

const config = loadConfig();
const unsafe = unsafeListenReason(config);
if (unsafe) {
  console.error(unsafe);
  process.exit(1);
}
const orm = await createOrm(config.databaseUrl);
await refuseSampleData(orm, config.production);
// The settings above say nothing of the data: development accounts of an earlier day still sign in with their
// published passwords, so an API facing a network refuses to start while the database holds any.
if (!isLoopbackHost(config.apiHost)) {
  const accounts = await liveDevelopmentAccounts(orm.em.fork());
  if (accounts.length) {
    console.error(developmentAccountsRefusal(config.apiHost, accounts));
    await orm.close();
    process.exit(1);
  }
}
// Lazy: the API starts while Temporal is down (readiness says so); commands answer 503 until it is back.
const temporal = await createTemporalClient(config.temporalAddress, config.temporalNamespace, { lazy: true });
const files = await new DocumentFiles(config.uploadsDir).init();
const app = await buildApp({ config, orm, temporal, files }, { logger: apiLoggerOptions(config.logLevel) });

// Prometheus metrics on a port of their own, when METRICS_PORT is set.
const metrics = config.metrics.port ? await startMetricsServer(app.metrics, config.metrics.host, config.metrics.port) : null;
if (metrics) console.log(`API metrics on ${metrics.url}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await metrics?.close();
    await app.close();
    await temporal.connection.close();
    await orm.close();
    process.exit(0);
  });
}
await app.listen({ host: config.apiHost, port: config.apiPort });
console.log(`API listening on ${config.publicUrl}`);
