/**
 * Each HTTP call's id: answered as `x-request-id`, in the API's JSON log lines as `reqId`, and
 * the context the Temporal client's interceptor reads (temporal/command-context.ts) while the handler awaits. An id sent
 * in `x-request-id` is believed only from a proxy TRUST_PROXY names. The id's path into the workflow and its
 * activities is proven on recorded histories (replay.test.ts) and in the production shape's logs.
 */
import Fastify from 'fastify';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import requestId, { requestIdOptions } from '../../api/plugins/request-id';
import { commandContext } from '../../temporal/command-context';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function app(trustProxy: boolean | number | string[]) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({ write(chunk, _encoding, done) { lines.push(JSON.parse(String(chunk))); done(); } });
  const server = Fastify({ logger: { level: 'info', stream }, ...requestIdOptions(trustProxy) });
  await server.register(requestId);
  server.post('/command', async (request) => {
    await new Promise((resolve) => setImmediate(resolve)); // a later tick, as the Temporal call is
    request.log.info('command handled');
    return { seenByTemporalClient: commandContext.getStore()?.reqId ?? null };
  });
  await server.ready();
  return { server, lines };
}

describe('the id of each HTTP call', () => {
  it('is answered as x-request-id, logged as reqId and seen by the Temporal client while the handler awaits', async () => {
    const { server, lines } = await app(false);
    const [one, two] = await Promise.all([1, 2].map(() => server.inject({ method: 'POST', url: '/command', payload: { a: 1 } })));
    for (const res of [one, two]) {
      const id = res.headers['x-request-id'] as string;
      expect(id).toMatch(UUID);
      expect(res.json()).toEqual({ seenByTemporalClient: id });
      const logged = lines.filter((line) => line.reqId === id).map((line) => line.msg);
      expect(logged).toEqual(expect.arrayContaining(['incoming request', 'command handled', 'request completed']));
    }
    expect(one.headers['x-request-id']).not.toBe(two.headers['x-request-id']);
    await server.close();
  });

  it('ignores an id sent by a client no TRUST_PROXY names, and takes a trusted proxy\'s when it is well formed', async () => {
    const direct = await app(false);
    const sent = await direct.server.inject({ method: 'POST', url: '/command', headers: { 'x-request-id': 'chosen-by-caller' } });
    expect(sent.headers['x-request-id']).toMatch(UUID);
    await direct.server.close();

    const elsewhere = await app(['10.0.0.0/8']); // inject's peer is 127.0.0.1: not that proxy
    expect((await elsewhere.server.inject({ method: 'POST', url: '/command', headers: { 'x-request-id': 'chosen-by-caller' } })).headers['x-request-id']).toMatch(UUID);
    await elsewhere.server.close();

    const proxied = await app(['127.0.0.1']);
    const taken = await proxied.server.inject({ method: 'POST', url: '/command', headers: { 'x-request-id': 'nginx-5f2a9c' } });
    expect(taken.headers['x-request-id']).toBe('nginx-5f2a9c');
    expect(taken.json()).toEqual({ seenByTemporalClient: 'nginx-5f2a9c' });
    for (const bad of ['has space', 'x'.repeat(65), '{"level":60}']) {
      const res = await proxied.server.inject({ method: 'POST', url: '/command', headers: { 'x-request-id': bad } });
      expect(res.headers['x-request-id'], bad).toMatch(UUID);
    }
    await proxied.server.close();
  });
});
