/**
 * A store for @fastify/rate-limit that counts in PostgreSQL: the per-route limits (sign-in calls,
 * reset links, registration, captcha) hold across every API process instead of one process's memory. Each route's
 * keys are prefixed with the route, as the library's own stores keep one map per route.
 */
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import type { Orm } from '../../db/orm';
import { countHit } from '../../services/limits/rate-limits';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

export function postgresRateLimitStore(orm: Orm) {
  return class PostgresRateLimitStore implements FastifyRateLimitStore {
    // @fastify/rate-limit constructs the store with its options; a route's store comes from child().
    constructor(_options?: unknown, readonly prefix = 'global') {}

    incr(key: string, callback: Callback, timeWindow: number): void {
      countHit(orm.em.fork(), `route|${this.prefix}|${key}`, timeWindow).then(
        ({ hits, resetInMs }) => callback(null, { current: hits, ttl: resetInMs }),
        (error: Error) => callback(error),
      );
    }

    // Typed as route options; at run time the library passes its merged settings, whose `routeInfo` is the route.
    child(params: object): FastifyRateLimitStore {
      const { method = '', url = '' } = (params as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo ?? {};
      return new PostgresRateLimitStore(undefined, `${Array.isArray(method) ? method.join(',') : method} ${url}`);
    }
  };
}
