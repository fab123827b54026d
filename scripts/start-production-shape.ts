/**
 * `npm run start:production-shape`: the production topology on this machine, without Docker
 * (devtools/production-shape.ts says what runs): the compiled portal (`npm run build`, done here) with
 * NODE_ENV=production, two APIs and two workers on the real Temporal server (built once, like the CLI), PostgreSQL
 * roles of their own, an SMTP relay stand-in and a reverse proxy on http://127.0.0.1:3040 (PRODUCTION_SHAPE_PORT).
 * State is kept in data/production-shape/ between starts. Ctrl-C stops everything.
 *
 * `-- --admin <email> --first <name> --last <name>` names the first administrator (put on the admin list and in the
 * directory, signed in through the identity provider's stand-in).
 *
 * PostgreSQL: DATABASE_URL's server as its administrator (the default: the local server, or an embedded one in
 * data/postgres when none answers).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/app-config';
import { ensurePostgres, usesDefaultDatabase } from '../devtools/postgres/embedded-postgres';
import { startProductionShape } from '../devtools/production-shape';
import { buildProduction } from './build';

const log = (line: string) => console.log(`[production-shape] ${line}`);
const config = loadConfig({ ...process.env, NODE_ENV: 'development' });
const port = Number(process.env.PRODUCTION_SHAPE_PORT ?? 3040);
const dataDir = path.join(config.dataDir, 'production-shape');

const started = Date.now();
await buildProduction({ log: (line) => log(`build: ${line}`) });
const postgres = await ensurePostgres({
  databaseUrl: config.databaseUrl, isDefault: usesDefaultDatabase(), clusterDir: path.join(config.dataDir, 'postgres'), persistent: true, log,
});
const admin = new URL(config.databaseUrl);
admin.pathname = '/postgres';
// The first administrator: `-- --admin you@university.edu --first You --last Yourself` (default: a demo address).
const { values } = parseArgs({ args: process.argv.slice(2), options: { admin: { type: 'string' }, first: { type: 'string' }, last: { type: 'string' } } });
const firstAdmin = { email: values.admin ?? 'first.admin@university.example', firstName: values.first ?? 'First', lastName: values.last ?? 'Administrator' };
const shape = await startProductionShape({
  adminDatabaseUrl: admin.toString(), dataDir, distDir: path.join(config.rootDir, 'dist'), port, firstAdmin, log,
});

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  log('stopping…');
  await shape.stop();
  await postgres.stop();
  log('stopped');
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

console.log(`
Production shape up in ${((Date.now() - started) / 1000).toFixed(1)} s (NODE_ENV=production, compiled dist/):
  Portal (proxy over ${shape.apiUrls.length} APIs):  ${shape.url}
  APIs:                       ${shape.apiUrls.join('  ')}
  Workers:                    ${[...shape.supervisors.keys()].filter((n) => n.startsWith('worker')).join(', ')}
  Temporal server:            ${shape.temporalAddress} (PostgreSQL; metrics ${shape.temporalMetricsUrl})
  SMTP relay stand-in:        ${shape.sink.url} (mail in ${path.relative(config.rootDir, path.join(dataDir, 'mail'))}/)
  The portal's database roles: ${new URL(shape.databaseUrl).username} (APIs and workers: rows only, security log
                              append-only), ${new URL(shape.ownerDatabaseUrl).username} (owner: migrations only); no superuser

  Identity provider stand-in: ${shape.identityProviderUrl} (SAML; signs in whom the directory lists)

No development accounts exist here. The first administrator is ${firstAdmin.email} (on the admin list and in the
directory): open ${shape.url}, choose "Sign in with university single sign-on", search "${firstAdmin.lastName}" and
sign in as ${firstAdmin.firstName} ${firstAdmin.lastName}: the Admin Dashboard opens. More administrators:
  DATABASE_URL='${shape.databaseUrl}' npm run admin -- add someone@university.edu --first Some --last One
Ctrl-C stops everything.`);
