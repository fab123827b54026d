/**
 * The example client of docs/ORGANISATIONS.md, run as an organisation would run it, against the real portal over
 * HTTP: with an API key it files and submits a clinician's certificate; the office's instant-certificate rule issues
 * it; its receiver verifies the signed "letter.issued" webhook; it downloads the letter with the key and the public
 * verification API says Valid.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../../devtools/temporal/dev-server';
import { call, loginAdmin, loginRequester, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

const run = promisify(execFile);
const script = path.join(import.meta.dirname, '../../docs/examples/organisation-client.mjs');
let h: Harness;
let requester: Session;
let admin: Session;

beforeAll(async () => {
  // A receiver on this machine: plain http and a loopback address are allowed outside production only.
  h = await startHarness({ listen: true, env: { WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' } });
  [requester, admin] = await Promise.all([loginRequester(h), loginAdmin(h)]);
});
afterAll(async () => { await h?.stop(); });

it('files, is issued, receives the signed webhook, downloads the letter and finds it Valid', async () => {
  const key = await call(h, requester, 'POST', '/api/v1/api-keys', { name: 'Credentialing system', scopes: ['requests:read', 'requests:write', 'letters:read'] });
  expect(key.status, JSON.stringify(key.body)).toBe(201);
  const port = await freePort();
  const endpoint = await call(h, requester, 'POST', '/api/v1/webhook-endpoints', { url: `http://127.0.0.1:${port}/hook`, events: ['letter.issued'] });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
  const rule = await call(h, admin, 'POST', '/api/v1/instant-rules', {
    name: 'Clinicians of registered organisations', kinds: ['Clinician'], conditions: { combinator: 'and', rules: [{ field: 'requesterType', operator: '=', value: 'external' }] },
  });
  expect(rule.status, JSON.stringify(rule.body)).toBe(201);
  await call(h, admin, 'PUT', `/api/v1/instant-rules/${rule.body.id}/enabled`, { enabled: true });
  await call(h, admin, 'PUT', '/api/v1/instant-settings', { enabled: true });

  const { stdout } = await run(process.execPath, [script], {
    env: { ...process.env, PORTAL_URL: h.baseUrl!, API_KEY: key.body.key, WEBHOOK_SECRET: endpoint.body.secret, RECEIVER_PORT: String(port) },
    timeout: 180_000,
  });
  const result = JSON.parse(stdout.trim().split('\n').pop()!);
  expect(result).toMatchObject({ status: 'Submitted', verification: 'Valid' });
  expect(result.letterBytes).toBeGreaterThan(1000);
  expect(result.code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{5}$/);
}, 240_000);
