/**
 * The API's metrics: requests by route and status, their latency as histograms, the live event
 * streams open, and Node's process metrics; served by temporal/metrics-server.ts on METRICS_PORT (api/server.ts).
 * Routes are counted by their pattern (`/api/v1/requests/:id`), never by the URL, so the series stay few.
 */
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { passwordHashing } from '../../services/accounts/password-hash';

declare module 'fastify' {
  interface FastifyInstance { metrics: Registry }
}

export default fp(async (app) => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'coi_api_' });
  const requests = new Counter({
    name: 'coi_api_http_requests_total', help: 'HTTP requests answered, by route pattern, method and status',
    labelNames: ['route', 'method', 'status'] as const, registers: [registry],
  });
  const latency = new Histogram({
    name: 'coi_api_http_request_duration_seconds', help: 'Time to answer an HTTP request, by route pattern and method',
    labelNames: ['route', 'method'] as const, buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [registry],
  });
  new Gauge({
    name: 'coi_api_event_streams_open', help: 'Live dashboard streams (GET /api/v1/events) open on this API', registers: [registry],
    collect() { this.set(app.eventStreams.size); },
  });
  // Password hashing of this process (services/accounts/password-hash.ts): how many checks ran, run now, wait, and were turned away.
  new Counter({
    name: 'coi_api_password_verifications_total', help: 'Password verifications (argon2) this process ran', registers: [registry],
    collect() { this.reset(); this.inc(passwordHashing.verifications); },
  });
  new Counter({
    name: 'coi_api_password_hashing_refused_total', help: 'Password hashings refused with 503 because the queue was full', registers: [registry],
    collect() { this.reset(); this.inc(passwordHashing.refused); },
  });
  new Gauge({
    name: 'coi_api_password_hashing_running', help: 'Password hashings running now in this process', registers: [registry],
    collect() { this.set(passwordHashing.running); },
  });
  new Gauge({
    name: 'coi_api_password_hashing_queued', help: 'Password hashings waiting for a slot in this process', registers: [registry],
    collect() { this.set(passwordHashing.waiting.length); },
  });
  app.decorate('metrics', registry);
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route.endsWith('/events')) return; // a stream's "response" is its whole life: counted as open streams instead
    requests.inc({ route, method: request.method, status: String(reply.statusCode) });
    latency.observe({ route, method: request.method }, reply.elapsedTime / 1000);
  });
}, { name: 'metrics', dependencies: ['request-events'] });
