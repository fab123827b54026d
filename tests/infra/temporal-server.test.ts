/**
 * The real Temporal server on PostgreSQL, not the dev server: built once, its role and two
 * databases apart from the portal's, schemas set up by Temporal's SQL tool, the namespace and the search attributes
 * registered. A request then runs on it as users see it: submitted, approved, the approval email with its letter in
 * the mailbox; operators find it by RequestNumber (SQL visibility); and the server's own metrics answer.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { freePortInRange } from '../../devtools/temporal/dev-server';
import { ensureTemporalServerBuild, startTemporalServer } from '../../devtools/temporal/temporal-server';
import { requestWorkflowId } from '../../workflows/request.messages';
import { call, credentialingDraft, loginAdmin, loginRequester } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { ownDatabase } from '../support/own-database';
import { startHarness, type Harness } from '../support/portal-harness';

const suffix = `${process.pid}_${randomBytes(2).toString('hex')}`;
const names = { user: 'coi_temporal_test', database: `temporal_${suffix}`, visibilityDatabase: `temporal_visibility_${suffix}` };
const adminUrl = (() => { const url = new URL(inject('databaseUrl')); url.pathname = '/postgres'; return url.toString(); })();

let server: Awaited<ReturnType<typeof startTemporalServer>>;
let h: Harness;
let database: Awaited<ReturnType<typeof ownDatabase>>;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'coi-temporal-server-'));
  server = await startTemporalServer({
    adminDatabaseUrl: adminUrl, address: `127.0.0.1:${await freePortInRange()}`, dataDir, password: 'temporal-test', ...names,
    log: (line) => console.log(`[temporal-server] ${line}`),
  });
  database = await ownDatabase('real_temporal');
  h = await startHarness({ databaseUrl: database.url, temporalAddress: server.address });
}, 600_000);

afterAll(async () => {
  await h?.stop();
  await server?.stop();
  await database?.drop();
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  for (const name of [names.database, names.visibilityDatabase]) await client.query(`drop database if exists "${name}" with (force)`).catch(() => undefined);
  await client.end();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the real Temporal server on PostgreSQL', () => {
  it('keeps its state in databases of its own role, apart from the portal\'s', async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      const owners = await client.query(`select datname, pg_get_userbyid(datdba) as owner from pg_database where datname = any($1)`, [[names.database, names.visibilityDatabase]]);
      expect(owners.rows.map((r) => r.owner)).toEqual([names.user, names.user]);
      const role = await client.query('select rolsuper, rolcreatedb, rolcreaterole from pg_roles where rolname = $1', [names.user]);
      expect(role.rows[0]).toEqual({ rolsuper: false, rolcreatedb: false, rolcreaterole: false });
    } finally {
      await client.end();
    }
  });

  it('runs a request from submit to the approval email with its letter; operators find it by RequestNumber', async () => {
    const requester = await loginRequester(h);
    const admin = await loginAdmin(h);
    const id = await credentialingDraft(h, requester);
    const submitted = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    const number = submitted.body.requestNumber as number;
    expect((await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: 'Approved', verified: true })).status).toBe(200);
    const mail = await h.sink.waitFor((m) => m.subject.includes(String(number)) && /approved/i.test(m.subject), 60_000);
    expect(mail.attachments.filter((a) => a.contentType === 'application/pdf')).toHaveLength(1);
    const found = await eventually(async () => {
      const ids: string[] = [];
      for await (const wf of h.temporal.workflow.list({ query: `RequestNumber = ${number}` })) ids.push(wf.workflowId);
      return ids.length ? ids : undefined;
    }, 30_000);
    expect(found).toEqual([requestWorkflowId(number)]);
  });

  it('serves its own Prometheus metrics', async () => {
    const text = await (await fetch(server.metricsUrl)).text();
    expect(text).toMatch(/^service_requests\{/m);
  });

  it('starts again on its databases (schemas already current) after a build longer than its start deadline, and still knows the request', async () => {
    await server.stop();
    // A first start on a fresh machine builds the server for minutes before it spawns: here the build stand-in moves
    // the start's clock on by more than the whole start deadline, and the server must still be left to start.
    const timeoutMs = 120_000;
    let buildTook = 0;
    const slowBuild = async (log: (line: string) => void) => {
      const build = await ensureTemporalServerBuild(log);
      buildTook = timeoutMs + 30_000;
      return build;
    };
    server = await startTemporalServer({
      adminDatabaseUrl: adminUrl, address: server.address, dataDir, password: 'temporal-test', ...names,
      timeoutMs, ensureBuild: slowBuild, now: () => Date.now() + buildTook,
    });
    expect(buildTook).toBeGreaterThan(timeoutMs);
    expect(server.process?.exitCode).toBeNull();
    expect(server.process?.signalCode).toBeNull();
    const runs: string[] = [];
    await eventually(async () => {
      runs.length = 0;
      for await (const wf of h.temporal.workflow.list({ query: 'RequestNumber > 0' })) runs.push(wf.workflowId);
      return runs.length ? true : undefined;
    }, 30_000);
    expect(runs.length).toBeGreaterThan(0);
  });
});
