import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers (CSP, HSTS, frame and sniffing rules, …) on every response. Helmet's middleware is built
 * once here: @fastify/helmet rebuilt it, directives parsed again, on every request (3% of a list call's CPU). No
 * route needs its own headers or CSP nonces (the UI has no inline script).
 */
export default fp(async (app, options: HelmetOptions) => {
  const setHeaders = helmet(options);
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
}, { name: 'security-headers' });
