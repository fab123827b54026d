/**
 * Each HTTP call's id: Fastify's `reqId` (its default log label) in the API's log lines, answered as `x-request-id`, and
 * carried into the workflow and its activities (temporal/command-context.ts), so one id finds every line of a command.
 * An id in `x-request-id` is taken only from a proxy we trust (TRUST_PROXY, judged by the socket's address as Fastify
 * judges X-Forwarded-For), which sets it (nginx `$request_id`); from anyone else it is ignored, so no caller can
 * make their calls log under another call's id.
 */
import type { FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { compile } from '@fastify/proxy-addr';
import { randomUUID } from 'node:crypto';
import { commandContext } from '../../temporal/command-context';
import { ACCEPTABLE_REQ_ID } from '../../workflows/log-header';

const REQUEST_ID_HEADER = 'x-request-id';

/** Whether the peer at `address` is a proxy TRUST_PROXY trusts (config/app-config.ts trustProxySetting). */
export function trustedPeer(trustProxy: boolean | number | string[]): (address: string | undefined) => boolean {
  if (trustProxy === true) return () => true;
  if (typeof trustProxy === 'number') return () => trustProxy > 0;
  if (Array.isArray(trustProxy) && trustProxy.length > 0) {
    const trust = compile(trustProxy);
    return (address) => !!address && trust(address, 0);
  }
  return () => false;
}

export function requestIdOptions(trustProxy: boolean | number | string[]): Pick<FastifyServerOptions, 'genReqId' | 'requestIdHeader'> {
  const trusted = trustedPeer(trustProxy);
  return {
    requestIdHeader: false,
    genReqId: (raw) => {
      const offered = trusted(raw.socket?.remoteAddress) ? raw.headers[REQUEST_ID_HEADER] : undefined;
      return typeof offered === 'string' && ACCEPTABLE_REQ_ID.test(offered) ? offered : randomUUID();
    },
  };
}

export default fp(async (app) => {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  // After the body is parsed and checked: everything the handler awaits (the Temporal client's calls) sees the id.
  app.addHook('preHandler', (request, _reply, done) => {
    commandContext.run({ reqId: request.id }, done);
  });
}, { name: 'request-id' });
