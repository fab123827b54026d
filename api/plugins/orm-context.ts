import fp from 'fastify-plugin';
import type { EntityManager } from '@mikro-orm/postgresql';

/** One forked entity manager per HTTP request (never the global one). */
export default fp(async (app) => {
  app.decorateRequest('em', null as unknown as EntityManager);
  app.addHook('onRequest', async (request) => {
    request.em = app.orm.em.fork() as EntityManager;
  });
}, { name: 'orm-context' });
