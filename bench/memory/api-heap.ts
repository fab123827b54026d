/**
 * `npm run bench:api-heap`: what the API's live heap at start is made of. Each step loads a part the API loads, collects, and prints how much live heap it added: the packages the
 * API imports (a hand-kept list: a package missing from it is counted with our modules), then our modules, then the
 * app built on a database (route schemas compiled).
 */
import os from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { runBench, stopLater } from '../lifecycle';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc --import tsx bench/memory/api-heap.ts');
const live = () => { gc(); gc(); return process.memoryUsage().heapUsed; };
const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;

runBench('bench:api-heap', async () => {
  let last = live();
  const start = last;
  const step = async (name: string, load: () => Promise<unknown>) => {
    const kept = await load(); // held until the end, as the API holds it
    const now = live();
    console.log(`${name.padEnd(58)} +${mib(now - last).padStart(10)}`);
    last = now;
    return kept;
  };

  console.log(`${'node and tsx'.padEnd(58)} ${mib(start).padStart(11)}`);
  const held: unknown[] = []; // the loaded packages stay referenced, as in the API
  for (const name of ['@temporalio/client', '@mikro-orm/postgresql', '@mikro-orm/migrations', '@node-saml/node-saml', 'handlebars', 'xstate', 'typebox', 'fastify', '@fastify/jwt', '@fastify/multipart', '@fastify/rate-limit', '@fastify/swagger', '@fastify/swagger-ui', '@fastify/static', 'ajv', 'pg', 'pg-copy-streams', 'csv-parse', 'file-type', 'argon2', 'altcha-lib', 'qs', 'helmet', 'prom-client']) {
    held.push(await step(name, () => import(name).catch(() => null)));
  }
  const { buildApp } = await step('our API modules (api/, domain/, db/, config/, …)', () => import('../../api/app')) as typeof import('../../api/app');
  const { loadConfig } = await import('../../config/app-config');
  const { createOrm } = await import('../../db/orm');
  const { DocumentFiles } = await import('../../storage/document-files');
  const { Client, Connection } = await import('@temporalio/client');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'coi-api-heap-'));
  stopLater('remove the data folder', () => rm(dataDir, { recursive: true, force: true }));
  const config = loadConfig({ ...process.env, TEMPORAL_ADDRESS: '127.0.0.1:1', DATA_DIR: dataDir, PORT: '0' });
  const orm = await step('MikroORM connected (metadata of every entity)', () => createOrm(config.databaseUrl)) as Awaited<ReturnType<typeof createOrm>>;
  stopLater('close the database pool', () => orm.close());
  const temporal = new Client({ connection: Connection.lazy({ address: config.temporalAddress }), namespace: config.temporalNamespace });
  const files = await new DocumentFiles(config.uploadsDir).init();
  const app = await step('the app built and ready (routes, schemas compiled)', async () => { const a = await buildApp({ config, orm, temporal, files }); await a.ready(); return a; }) as Awaited<ReturnType<typeof buildApp>>;
  stopLater('close the app', () => app.close());
  console.log(`${'live heap of a ready API'.padEnd(58)} ${mib(live()).padStart(11)}  (RSS ${mib(process.memoryUsage().rss)})`);
});
