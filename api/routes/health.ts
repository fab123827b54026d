import type { FastifyInstance } from 'fastify';

/** Liveness for `npm start` and the container health checks. */
export default async function healthRoutes(app: FastifyInstance) {
  app.get('/health', async () => ({ status: 'ok' }));
}
