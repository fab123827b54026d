import fp from 'fastify-plugin';
import type { EntityManager } from '@mikro-orm/postgresql';
import { pruneSecurityLog } from '../services/security-log';

const DAY_MS = 86_400_000;
/** Any fixed number: the advisory lock that lets one API process prune at a time. */
const PRUNE_LOCK = 160_008;

/**
 * Keeps the security log to a year (issue #16): prunes when the API is ready and then daily. With several API
 * processes, a transaction-level advisory try-lock lets one of them do it and the others skip that round (the
 * delete is idempotent anyway: the lock only saves duplicate work).
 */
export default fp(async (app) => {
  const prune = async () => {
    try {
      await app.orm.em.fork().transactional(async (tx) => {
        const [{ locked }] = await tx.getConnection().execute<{ locked: boolean }[]>('select pg_try_advisory_xact_lock(?) as locked', [PRUNE_LOCK]);
        if (locked) await pruneSecurityLog(tx as EntityManager);
      });
    } catch (err) {
      app.log.error({ err }, 'security log prune failed');
    }
  };
  let timer: NodeJS.Timeout | undefined;
  // The prune in flight: closing waits for it, or the ORM would be closed under its open transaction (a shutdown
  // right after start hung until the hook timeout).
  let running: Promise<void> = Promise.resolve();
  const start = () => { running = running.then(prune); };
  app.addHook('onReady', async () => {
    start();
    timer = setInterval(start, DAY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}, { name: 'security-log-retention' });
