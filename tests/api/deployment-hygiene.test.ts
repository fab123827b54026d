/**
 * What an operator meets on a deployed portal: a proxy TRUST_PROXY does not name (or callers past it) is reported
 * once in the log and in readiness; garbage posted to the single sign-on consumer grows the security log by one
 * aggregated line, not a line per post; expired SAML message ids are pruned by housekeeping; the UI's built files named
 * by their content are cached by browsers for good, the page that names them never.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app';
import { apiLoggerOptions } from '../../api/logging';
import type { AppConfig } from '../../config/app-config';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
beforeAll(async () => {
  const idp = await generate([{ name: 'commonName', value: 'test IdP' }], { keySize: 2048, algorithm: 'sha256' });
  h = await startHarness({
    worker: false,
    env: { SAML_IDP_ENTRY_POINT: 'https://idp.university.test/sso', SAML_IDP_CERT: idp.cert, SAML_IDP_ENTITY_ID: 'https://idp.university.test/metadata' },
  });
});
afterAll(async () => { await h?.stop(); });

const sql = <T>(query: string, params: unknown[] = []) => h.orm.em.fork().getConnection().execute<T[]>(query, params, 'all');

/** Another API process on the same database, with its own settings and its log lines collected. */
async function apiProcess(config: Partial<AppConfig>) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({ write(chunk, _encoding, done) { lines.push(JSON.parse(String(chunk))); done(); } });
  const app = await buildApp({ config: { ...h.config, ...config }, orm: h.orm, temporal: h.temporal, files: h.files }, { logger: apiLoggerOptions('warn', stream) });
  await app.ready();
  const warnings = () => lines.filter((line) => line.level === 40 && /X-Forwarded-For/.test(String(line.msg)));
  // Readiness answers 503 while PostgreSQL is slower than its 2 s check (a loaded test machine): ask until it is ready.
  const readiness = async () => (await eventually(async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/health/ready' });
    return res.statusCode === 200 ? res.json() as { untrustedForwardedFor: unknown } : null;
  }, 60_000)).untrustedForwardedFor;
  return { app, warnings, readiness };
}

describe('X-Forwarded-For from a peer TRUST_PROXY does not name', () => {
  it('behind a proxy without TRUST_PROXY: one warning however many requests, and readiness counts them', async () => {
    const api = await apiProcess({ trustProxy: false });
    try {
      await api.app.inject({ method: 'GET', url: '/api/v1/health', remoteAddress: '10.0.0.5' });
      expect(await api.readiness()).toBeNull();
      for (let i = 0; i < 30; i += 1) {
        await api.app.inject({ method: 'GET', url: '/api/v1/health', remoteAddress: '10.0.0.5', headers: { 'x-forwarded-for': `198.51.100.${i}` } });
      }
      expect(api.warnings()).toHaveLength(1);
      expect(api.warnings()[0]).toMatchObject({ peer: '10.0.0.5' });
      expect(String(api.warnings()[0].msg)).toMatch(/set TRUST_PROXY to its address/);
      expect(await api.readiness()).toMatchObject({ requests: 30, lastPeer: '10.0.0.5', firstSeenAt: expect.any(String) });
    } finally {
      await api.app.close();
    }
  });

  it('with TRUST_PROXY naming the proxy: silent for the proxy, reported for a caller past it', async () => {
    const api = await apiProcess({ trustProxy: ['10.9.8.7'] });
    try {
      await api.app.inject({ method: 'GET', url: '/api/v1/health', remoteAddress: '10.9.8.7', headers: { 'x-forwarded-for': '198.51.100.1' } });
      expect(api.warnings()).toHaveLength(0);
      expect(await api.readiness()).toBeNull();
      await api.app.inject({ method: 'GET', url: '/api/v1/health', remoteAddress: '203.0.113.50', headers: { 'x-forwarded-for': '198.51.100.2' } });
      expect(api.warnings()).toHaveLength(1);
      expect(await api.readiness()).toMatchObject({ requests: 1, lastPeer: '203.0.113.50' });
    } finally {
      await api.app.close();
    }
  });
});

describe('single sign-on refusals', () => {
  it('aggregates a flood of garbage posts to the consumer from one address into one line with a count', async () => {
    const ip = '203.0.113.77';
    const garbage = ['not base64 at all', Buffer.from('<samlp:Response>garbage</samlp:Response>').toString('base64'), ''];
    for (let i = 0; i < 50; i += 1) {
      const res = await h.app.inject({
        method: 'POST', url: '/saml/OHSU/acs', remoteAddress: ip,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ SAMLResponse: garbage[i % garbage.length] }).toString(),
      });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toMatch(/^\/login#error=/);
    }
    const lines = await sql<{ code: string; repeats: string }>(
      `select "detail"->>'code' as "code", "detail"->>'repeats' as "repeats" from "security_events" where "kind" = 'singleSignOnRefused' and "ip" = ?`, [ip]);
    const codes = new Set(lines.map((line) => line.code));
    // One line per refusal code and minute (two minutes at most if the clock turned during the flood).
    expect(lines.length).toBeLessThanOrEqual(codes.size * 2);
    expect(lines.length).toBeLessThanOrEqual(6);
    expect(lines.reduce((sum, line) => sum + Number(line.repeats), 0)).toBe(50);
  });

  it('prunes expired SAML message ids at housekeeping, keeping the live ones', async () => {
    for (let i = 0; i < 3; i += 1) expect((await h.app.inject({ method: 'GET', url: '/saml/OHSU/login' })).statusCode).toBe(302);
    const live = Number((await sql<{ n: string }>('select count(*) as "n" from "saml_message_ids" where "expires_at" > now()'))[0].n);
    expect(live).toBeGreaterThanOrEqual(3);
    for (let i = 0; i < 5; i += 1) {
      await sql(`insert into "saml_message_ids" ("key", "value", "created_at", "expires_at") values (?, 'x', now() - interval '2 days', now() - interval '1 day')`, [`request:expired-${i}`]);
    }
    // A new API process does a housekeeping round as soon as it is ready (then hourly).
    const api = await apiProcess({});
    try {
      await eventually(async () => Number((await sql<{ n: string }>(`select count(*) as "n" from "saml_message_ids" where "key" like 'request:expired-%'`))[0].n) === 0);
      const after = Number((await sql<{ n: string }>('select count(*) as "n" from "saml_message_ids" where "expires_at" > now()'))[0].n);
      expect(after).toBe(live);
    } finally {
      await api.app.close();
    }
  });
});

describe('the built UI (ui/dist, which npm test builds first)', () => {
  it('a file named by its content is kept by the browser for a year; the page naming them is asked for every time', async () => {
    const script = readdirSync(path.join(h.config.rootDir, 'ui', 'dist', 'assets')).find((file) => file.endsWith('.js'));
    expect(script, 'ui/dist/assets holds the build (npm run build:ui)').toBeDefined();
    const asset = await h.app.inject({ method: 'GET', url: `/assets/${script}` });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await h.app.inject({ method: 'GET', url: '/dashboard' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toContain(`/assets/`);
  });
});
