import fp from 'fastify-plugin';
import type { EntityManager } from '@mikro-orm/postgresql';

const FORK = Symbol('em fork');

/**
 * One forked entity manager per HTTP request (never the global one for entities), made when the request first asks
 * for it. The busiest calls (the session check, list pages, searches, the admin dashboard) only run raw statements,
 * which need no identity map: they take `app.orm.em`'s connection, each statement on a pooled connection of its own.
 * Forking for them was 2% of a list call's CPU, and the admin dashboard forked seven times.
 */
export default fp(async (app) => {
  app.decorateRequest(FORK, null);
  app.decorateRequest('em', {
    getter() {
      const request = this as unknown as { [FORK]: EntityManager | null };
      return (request[FORK] ??= app.orm.em.fork() as EntityManager);
    },
  });
}, { name: 'orm-context' });
