/**
 * What the API's log lines may say (api/logging.ts): with LOG_LEVEL=info (production's default) every call is
 * logged, so a reset or confirmation link's token must not be, nor a search's values; the reqId and the route stay.
 */
import Fastify from 'fastify';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLoggerOptions, SECRET_PAGE_PATHS, SECRET_PATH_ROUTES } from '../../api/logging';
import { paths } from '../../ui/src/lib/paths';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
beforeAll(async () => { h = await startHarness({ worker: false }); });
afterAll(async () => { await h?.stop(); });

async function loggedApp() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({ write(chunk, _encoding, done) { lines.push(JSON.parse(String(chunk))); done(); } });
  const app = Fastify({ logger: apiLoggerOptions('info', stream) });
  app.get('/api/v1/password-reset/:id', async () => ({ isValid: true }));
  app.get('/api/v1/email-confirmations/:token', async () => ({ isValid: true }));
  app.get('/api/v1/search-requests', async () => ({ data: [] }));
  app.get('/api/v1/requests/:id', async () => ({}));
  // As api/plugins/static-ui.ts: the UI's pages are answered by the not-found handler (no route pattern).
  app.setNotFoundHandler((_request, reply) => reply.type('text/html').send('<html></html>'));
  await app.ready();
  return { app, lines };
}

describe('the API\'s log lines', () => {
  it('never carry a reset or confirmation token, nor a search\'s values; they keep the id, route and query names', async () => {
    const { app, lines } = await loggedApp();
    const secret = 'f3c1d7e2a9b84c6e9d0a1b2c3d4e5f60';
    await app.inject({ url: `/api/v1/password-reset/${secret}` });
    await app.inject({ url: `/api/v1/email-confirmations/${secret}` });
    await app.inject({ url: '/api/v1/search-requests?clinLastName=Feathersby&searchFrom=2026-01-01' });
    await app.inject({ url: '/api/v1/requests/42' });
    const text = lines.map((line) => JSON.stringify(line)).join('\n');
    expect(text).not.toContain(secret);
    expect(text).not.toContain('Feathersby');
    const urls = lines.filter((line) => line.msg === 'incoming request').map((line) => (line.req as { url: string }).url);
    expect(urls).toEqual([
      '/api/v1/password-reset/:id', '/api/v1/email-confirmations/:token',
      '/api/v1/search-requests?clinLastName=…&searchFrom=…', '/api/v1/requests/42',
    ]);
    expect(lines.every((line) => typeof line.reqId === 'string')).toBe(true);
    await app.close();
  });

  it('never carry the token of a page opened from an email (reset, confirmation), nor a query token', async () => {
    const { app, lines } = await loggedApp();
    const secret = '9a8b7c6d5e4f30211203f4e5d6c7b8a9';
    await app.inject({ url: paths.passwordReset.getHref(secret) });
    await app.inject({ url: paths.confirmEmail.getHref(secret) });
    await app.inject({ url: `/Login/Password-Reset/${secret}/` });
    await app.inject({ url: `/login?token=${secret}` });
    const text = lines.map((line) => JSON.stringify(line)).join('\n');
    expect(text).not.toContain(secret);
    const urls = lines.filter((line) => line.msg === 'incoming request').map((line) => (line.req as { url: string }).url);
    expect(urls).toEqual(['/login/password-reset/:id', '/login/confirm-email/:token', '/Login/Password-Reset/:id', '/login?token=…']);
    await app.close();
  });

  it('name the UI pages that carry a token in their path, as the router has them', () => {
    expect([...SECRET_PAGE_PATHS].sort()).toEqual([paths.passwordReset.path, paths.confirmEmail.path].sort());
  });

  it('names routes the API really has (a renamed route would otherwise log its token)', () => {
    for (const url of SECRET_PATH_ROUTES) {
      expect(h.app.hasRoute({ method: 'GET', url }), url).toBe(true);
      expect(h.app.hasRoute({ method: 'PATCH', url }), url).toBe(true);
    }
  });
});
