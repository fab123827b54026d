/**
 * X-Forwarded-For from a peer TRUST_PROXY does not name: the API behind a proxy it was not told about (every caller
 * then has the proxy's address, so each per-address limit becomes one limit for everyone, and the security log names
 * the proxy), or a caller reaching the API past the proxy with a header of its own choosing (ignored, rightly). Either
 * way the operator should know: the first such request is logged as a warning (once per process, never per request,
 * so a client sending the header on every call cannot flood the log), and readiness reports the count, the last peer
 * and when it was first seen (GET /api/v1/health/ready `untrustedForwardedFor`).
 * The observation belongs to this process (each API process reports the peers it saw), so it lives on the app.
 */
import fp from 'fastify-plugin';
import { trustedPeer } from './request-id';

interface UntrustedForwardedFor {
  /** Requests that carried the header from an untrusted peer since this process started. */
  requests: number;
  lastPeer: string;
  firstSeenAt: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** null: no request carried X-Forwarded-For from an untrusted peer. */
    untrustedForwardedFor: () => UntrustedForwardedFor | null;
  }
}

export default fp(async (app) => {
  const trusted = trustedPeer(app.config.trustProxy);
  let seen: UntrustedForwardedFor | null = null;
  app.decorate('untrustedForwardedFor', () => (seen ? { ...seen } : null));
  app.addHook('onRequest', async (request) => {
    const header = request.headers['x-forwarded-for'];
    if (!header || (typeof header === 'string' && !header.trim())) return;
    const peer = request.raw.socket?.remoteAddress ?? 'unknown';
    if (trusted(peer)) return;
    if (seen) {
      seen.requests += 1;
      seen.lastPeer = peer;
      return;
    }
    seen = { requests: 1, lastPeer: peer, firstSeenAt: new Date().toISOString() };
    app.log.warn(
      { peer, trustProxy: app.config.trustProxy },
      'X-Forwarded-For from a peer TRUST_PROXY does not name: the header is ignored and this peer\'s address is used. '
      + 'Behind a proxy, set TRUST_PROXY to its address (or CIDR, or hop count), or every client shares one address for '
      + 'the per-address limits and the security log; if the API is reachable past the proxy, close that path. '
      + 'Logged once; readiness (GET /api/v1/health/ready) counts further requests.',
    );
  });
}, { name: 'untrusted-forwarded-for' });
