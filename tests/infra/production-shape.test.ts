/**
 * The production shape, as users and operators meet it: the compiled portal (dist/) with NODE_ENV=production on
 * the real Temporal server, two APIs and two workers behind the reverse proxy, the portal on a least-privilege role.
 *   - a request created through one API is submitted through the other and approved through the first, with its
 *     confirmation and approval emails (the letter attached);
 *   - the first administrator signs in through the identity provider's stand-in onto the Admin Dashboard;
 *   - a command's reqId (the proxy's x-request-id) is in its JSON log lines on the API and on the workers that ran
 *     its workflow's activities (its status write, its letter, its email);
 *   - a live-dashboard stream held by one API sees a change made through the other;
 *   - kill -9 of one API and one worker while requests flow loses nothing: every request approved with its approval
 *     email (a second copy only if the worker died inside the SMTP window, which its audit row then says);
 *   - an export survives kill -9 of the API that started it;
 *   - /metrics answers on each process's own port; readiness turns red while its database cannot be reached, and
 *     green again after;
 *   - the office's signing key is in the workers' environment, never in the APIs'.
 */
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startProductionShape, type ProductionShape } from '../../devtools/production-shape';
import { api, claimHistoryDraft, putAccounts, signIn, signInWithSingleSignOn, type Session } from '../../devtools/portal-client';
import { eventually } from '../support/eventually';
import { activitiesSettled } from '../support/workflow-activities';
import { requestWorkflowId } from '../../workflows/request.messages';
import { UI_BROWSER_PATH } from '../../devtools/ui-browser';

// The run's production build (tests/setup/global-setup.ts), read only.
const distDir = inject('productionBuild').outDir;
const suffix = `${process.pid}_${randomBytes(2).toString('hex')}`;
const names = {
  portalRole: `coi_shape_${suffix}`, portalRuntimeRole: `coi_shape_app_${suffix}`, portalDatabase: `coi_shape_${suffix}`,
  temporalRole: 'coi_shape_temporal', temporalDatabase: `temporal_shape_${suffix}`, visibilityDatabase: `temporal_shape_vis_${suffix}`,
};
const adminUrl = (() => { const url = new URL(inject('databaseUrl')); url.pathname = '/postgres'; return url.toString(); })();
const REQUESTER = { email: `shape-requester-${suffix}@hospital.example`, password: 'Requester-Pass1' };
const FIRST_ADMIN = { email: `pat.boss.${suffix.replace(/_/g, '-')}@university.example`, firstName: 'Pat', lastName: `Boss${suffix.replace(/_/g, '')}` };

let shape: ProductionShape;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'coi-shape-'));
  shape = await startProductionShape({
    adminDatabaseUrl: adminUrl, dataDir, distDir, names, firstAdmin: FIRST_ADMIN, log: (line) => console.log(`[shape] ${line}`),
  });
  await putAccounts(shape.databaseUrl, REQUESTER);
}, 600_000);

afterAll(async () => {
  await shape?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  for (const db of [names.portalDatabase, names.temporalDatabase, names.visibilityDatabase]) await client.query(`drop database if exists "${db}" with (force)`).catch(() => undefined);
  for (const role of [names.portalRuntimeRole, names.portalRole]) await client.query(`drop role if exists "${role}"`).catch(() => undefined);
  await client.end();
});

describe('the production shape: two APIs and two workers on the real Temporal server', () => {
  it('runs the portal as a role that is no superuser and may create neither databases nor roles', async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      for (const name of [names.portalRole, names.portalRuntimeRole]) {
        const role = await client.query('select rolsuper, rolcreatedb, rolcreaterole from pg_roles where rolname = $1', [name]);
        expect(role.rows[0], name).toEqual({ rolsuper: false, rolcreatedb: false, rolcreaterole: false });
      }
      // The APIs and workers connect as the runtime role, which does not own the database (migrations run as the owner).
      expect(decodeURIComponent(new URL(shape.databaseUrl).username)).toBe(names.portalRuntimeRole);
      const owner = await client.query('select pg_get_userbyid(datdba) as owner from pg_database where datname = $1', [names.portalDatabase]);
      expect(owner.rows[0].owner).toBe(names.portalRole);
    } finally {
      await client.end();
    }
    expect(shape.apiUrls).toHaveLength(2);
    expect([...shape.supervisors.keys()].sort()).toEqual(['api-1', 'api-2', 'worker-1', 'worker-2']);
  });

  it('gives the office\'s signing key to the workers alone: no API process holds it in its environment', async () => {
    const environment = (name: string) => {
      const pid = shape.supervisors.get(name)!.child!.pid!;
      return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').map((entry) => entry.slice(0, entry.indexOf('=')));
    };
    for (const api of ['api-1', 'api-2']) expect(environment(api).filter((name) => name.startsWith('LETTER_SIGNING_P12')), api).toEqual([]);
    expect(environment('worker-1')).toEqual(expect.arrayContaining(['LETTER_SIGNING_P12', 'LETTER_SIGNING_P12_PASSWORD']));
  });

  it('takes a request created on one API, submitted on the other, approved on the first, with its emails; a stream on one sees a change made on the other', async () => {
    const [one, two] = shape.apiUrls;
    const requester = await signIn(one, REQUESTER);
    const admin = await signInWithSingleSignOn(two, FIRST_ADMIN.email);
    const id = await claimHistoryDraft(one, requester);

    // The administrator's live stream, held by API 2, while the request is submitted through API 1.
    const stream = await fetch(`${two}/api/v1/events`, { headers: { authorization: `Bearer ${admin.token}` } });
    const reader = stream.body!.getReader();
    let seen = '';
    const sawRequest = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return false;
        seen += new TextDecoder().decode(value);
        if (new RegExp(`"requestId":${id}\\b`).test(seen)) return true;
      }
    })();
    const submitted = await api(one, requester, 'PATCH', `/requests/${id}`, { status: 'Submitted' });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    const number = submitted.body.requestNumber as number;
    expect(await Promise.race([sawRequest, new Promise((resolve) => setTimeout(() => resolve('timeout'), 60_000))])).toBe(true);
    await reader.cancel();

    expect((await api(two, admin, 'PATCH', `/requests/${id}`, { status: 'Approved', verified: true })).status).toBe(200);
    const approval = await shape.sink.waitFor((m) => m.subject.includes(`${number} approved`), 60_000);
    expect(approval.attachments.filter((a) => a.contentType === 'application/pdf')).toHaveLength(1);
    await shape.sink.waitFor((m) => m.subject.includes(String(number)) && /received|submitted/i.test(m.subject), 30_000);
    expect((await api(shape.url, requester, 'GET', `/requests/${id}`)).body.status).toBe('Approved');
  });

  it('logs a command as JSON lines whose reqId follows it from the API into its workflow\'s activities on the workers', async () => {
    const requester = await signIn(shape.url, REQUESTER);
    const admin = await signInWithSingleSignOn(shape.url, FIRST_ADMIN.email);
    const id = await claimHistoryDraft(shape.url, requester);
    const submitted = await api(shape.url, requester, 'PATCH', `/requests/${id}`, { status: 'Submitted' });
    const number = submitted.body.requestNumber as number;
    const approved = await fetch(`${shape.url}/api/v1/requests/${id}`, {
      method: 'PATCH', headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'Approved', verified: true }),
    });
    expect(approved.status).toBe(200);
    const reqId = approved.headers.get('x-request-id')!;
    expect(reqId).toMatch(/^[0-9a-f-]{36}$/); // the proxy's, as nginx's $request_id would be
    await shape.sink.waitFor((m) => m.subject.includes(`${number} approved`), 60_000);

    const linesOf = (prefix: string) => fs.readdirSync(shape.logsDir).filter((f) => f.startsWith(prefix))
      .flatMap((f) => fs.readFileSync(path.join(shape.logsDir, f), 'utf8').split('\n'))
      .filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.reqId === reqId);
    const finished = await eventually(async () => {
      const activities = linesOf('worker-').filter((line) => line.msg === 'activity finished');
      const types = activities.map((line) => line.activityType);
      return ['recordStatus', 'issueLetterAndEmail'].every((t) => types.includes(t)) ? activities : undefined;
    }, 20_000);
    expect(finished.every((line) => line.workflowId === `request-${number}` && line.level === 30 && typeof line.time === 'number')).toBe(true);
    const apiLines = linesOf('api-');
    expect(apiLines.map((line) => line.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    expect(apiLines.find((line) => line.msg === 'request completed')).toMatchObject({ res: { statusCode: 200 } });
    // Nothing of another request's workflow logged under this command's id.
    expect(linesOf('worker-').filter((line) => line.workflowId !== `request-${number}`)).toEqual([]);
  });

  it('loses nothing when one API and one worker are killed with SIGKILL while requests flow', async () => {
    const requester = await signIn(shape.url, REQUESTER);
    const admin = await signInWithSingleSignOn(shape.url, FIRST_ADMIN.email);
    const ids = await Promise.all(Array.from({ length: 6 }, () => claimHistoryDraft(shape.url, requester)));
    /** Through the proxy; a call that meets the killed API (connection reset) is repeated, as a browser's retry. */
    const command = async (session: Session, id: number, body: Record<string, unknown>) => eventually(async () => {
      const res = await api(shape.url, session, 'PATCH', `/requests/${id}`, body).catch(() => null);
      return res && res.status === 200 ? res.body : undefined;
    }, 60_000);
    const numbers: number[] = [];
    const flows = ids.map(async (id, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 300));
      numbers[i] = (await command(requester, id, { status: 'Submitted' })).requestNumber;
      await command(admin, id, { status: 'Approved', verified: true });
    });
    await new Promise((resolve) => setTimeout(resolve, 600));
    shape.supervisors.get('api-1')!.child?.kill('SIGKILL');
    shape.supervisors.get('worker-1')!.child?.kill('SIGKILL');
    await Promise.all(flows);
    for (const number of numbers) await shape.sink.waitFor((m) => m.subject.includes(`${number} approved`), 120_000);
    // A duplicate could only come from an activity still pending: once no request workflow has one, none can arrive.
    const temporal = new Client({ connection: await Connection.connect({ address: shape.temporalAddress }) });
    try {
      for (const number of numbers) await activitiesSettled(temporal, requestWorkflowId(number), 60_000);
    } finally {
      await temporal.connection.close();
    }
    for (const number of numbers) {
      const copies = shape.sink.messages().filter((m) => m.subject.includes(`${number} approved`));
      // One email per approval; outside the SMTP window a kill never sends one twice (its audit row says so if it did).
      expect(copies.length, `approval emails of ${number}`).toBeLessThanOrEqual(2);
      expect(copies.length).toBeGreaterThanOrEqual(1);
    }
    expect(shape.supervisors.get('api-1')!.restartCount).toBeGreaterThanOrEqual(1);
    await shape.ready();
  });

  it('signs the first administrator in through the identity provider\'s stand-in, in Chromium, onto the Admin Dashboard', async () => {
    const browser = await chromium.launch({ executablePath: UI_BROWSER_PATH });
    try {
      const page = await browser.newPage({ baseURL: shape.url });
      await page.goto('/login');
      await page.getByRole('link', { name: 'Sign in with university single sign-on' }).click();
      await page.getByRole('heading', { name: 'Development sign-in' }).waitFor();
      await page.getByLabel('Name, email or employee id').fill(FIRST_ADMIN.lastName);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('button', { name: `Sign in as ${FIRST_ADMIN.firstName} ${FIRST_ADMIN.lastName}` }).click();
      await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor({ timeout: 30_000 });
    } finally {
      await browser.close();
    }
  });

  it('answers /metrics on each process\'s own port with the named series', async () => {
    const text = async (name: string) => (await fetch(shape.metricsUrls.get(name)!)).text();
    const api2 = await text('api-2');
    expect(api2).toMatch(/^coi_api_http_requests_total\{route="\/api\/v1\/requests\/:id",method="PATCH",status="200"\} \d+/m);
    expect(api2).toMatch(/^coi_api_http_request_duration_seconds_bucket\{le="0\.1",route="\/api\/v1\/requests\/:id",method="PATCH"\} \d+/m);
    expect(api2).toMatch(/^coi_api_event_streams_open \d+/m);
    const worker = await eventually(async () => {
      const all = await Promise.all(['worker-1', 'worker-2'].map(text));
      return all.find((t) => /^coi_worker_letters_rendered_total [1-9]/m.test(t));
    }, 10_000);
    expect(worker).toMatch(/^coi_effects\{state="pending"\} \d+/m);
    expect(worker).toMatch(/^coi_effects\{state="failed"\} \d+/m);
    expect(worker).toMatch(/^temporal_\w+/m); // the Temporal SDK's own (task latencies, slots, sticky cache)
    expect(await (await fetch(shape.temporalMetricsUrl)).text()).toMatch(/^service_requests\{/m); // the server's
  });

  it('completes an export whose API was killed right after starting it', async () => {
    const [one] = shape.apiUrls;
    const admin = await signInWithSingleSignOn(one, FIRST_ADMIN.email);
    const started = await api(one, admin, 'POST', '/export-requests', { filename: 'coi_export_shape' });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    shape.supervisors.get('api-1')!.child?.kill('SIGKILL');
    const done = await eventually(async () => {
      const res = await api(shape.url, admin, 'GET', `/export-requests/${started.body.id}`).catch(() => null);
      return res?.body?.state === 'done' ? res.body : undefined;
    }, 90_000);
    expect(done.rowsWritten).toBeGreaterThanOrEqual(7);
    const file = await eventually(async () => {
      const res = await fetch(`${shape.url}/api/v1/export-requests/${done.id}/file`, { headers: { authorization: `Bearer ${admin.token}` } }).catch(() => null);
      return res?.status === 200 ? Buffer.from(await res.arrayBuffer()) : undefined;
    }, 30_000);
    expect(file.subarray(0, 2).toString()).toBe('PK'); // an xlsx (zip)
    await shape.ready();
  });

  it('turns readiness red while its PostgreSQL database cannot be reached, liveness staying green, and green again after', async () => {
    const [one] = shape.apiUrls;
    const status = async (url: string) => (await fetch(`${one}/api/v1/${url}`)).status;
    expect(await status('health/ready')).toBe(200);
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      // The portal's database stops taking connections and loses the ones it had: as PostgreSQL going away looks to it.
      await client.query(`alter database "${names.portalDatabase}" allow_connections false`);
      await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [names.portalDatabase]);
      await eventually(async () => ((await status('health/ready')) === 503 ? true : undefined), 30_000);
      expect(await status('health')).toBe(200);
    } finally {
      await client.query(`alter database "${names.portalDatabase}" allow_connections true`);
      await client.end();
    }
    await eventually(async () => ((await status('health/ready')) === 200 ? true : undefined), 60_000);
    await shape.ready();
  });
});
