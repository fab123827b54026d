import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { temporalAnswers } from '../../temporal/connection';
import { unavailable } from '../errors';
import { oldestPendingEffectSeconds } from '../../services/desk/email-problems';
import { errorResponses } from '../../contract/error.schema';

const Readiness = Type.Object({
  status: Type.Literal('ready'),
  database: Type.Literal('up'),
  temporal: Type.Union([Type.Literal('up'), Type.Literal('down')], { description: 'down: sign-in, lists and reads work; commands answer 503' }),
  oldestPendingEffectSeconds: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
    description: 'age of the oldest email or letter still waiting to go out (null: none); a monitor alerts when it grows',
  }),
  untrustedForwardedFor: Type.Union([
    Type.Object({
      requests: Type.Integer({ minimum: 1 }),
      lastPeer: Type.String(),
      firstSeenAt: Type.String({ format: 'date-time' }),
    }),
    Type.Null(),
  ], {
    description: 'requests that carried X-Forwarded-For from a peer TRUST_PROXY does not name, since this process started '
      + '(null: none). Set: a proxy in front that TRUST_PROXY misses (all callers share its address), or callers reaching the API past it',
  }),
});

/** Whether PostgreSQL answers a query within `timeoutMs`. */
async function databaseAnswers(run: () => Promise<unknown>, timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([run(), new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('timeout')), timeoutMs); })]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Liveness (`/health`: the process answers; fails on neither database nor Temporal, so an orchestrator never
 * restarts an API that is only waiting for them) and readiness (`/health/ready`: 503 while PostgreSQL is unreachable,
 * since nothing works without it; Temporal's state reported without failing, since the API serves reads without it).
 */
const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/health', {
    schema: { tags: ['health'], summary: 'Liveness', security: [], response: { 200: Type.Object({ status: Type.Literal('ok') }) } },
  }, async () => ({ status: 'ok' as const }));

  app.get('/health/ready', {
    schema: { tags: ['health'], summary: 'Readiness: PostgreSQL must answer; Temporal is reported', security: [], response: { 200: Readiness, ...errorResponses(503) } },
  }, async () => {
    let oldest: number | null = null;
    const [database, temporal] = await Promise.all([
      databaseAnswers(async () => { oldest = await oldestPendingEffectSeconds(app.orm.em.fork()); }),
      temporalAnswers(app.temporal),
    ]);
    if (!database) throw unavailable('The database does not answer');
    return {
      status: 'ready' as const, database: 'up' as const, temporal: temporal ? 'up' as const : 'down' as const, oldestPendingEffectSeconds: oldest,
      untrustedForwardedFor: app.untrustedForwardedFor(),
    };
  });
};

export default healthRoutes;
