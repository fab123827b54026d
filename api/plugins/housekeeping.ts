import fp from 'fastify-plugin';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { kysely } from '../../db/kysely';
import { pruneExpiredSamlMessageIds } from '../auth/saml/saml-message-store';
import { pruneChosenAddressMailCounts } from '../../services/limits/chosen-address-mail';
import { pruneRateLimitCounters } from '../../services/limits/rate-limits';
import { pruneSecurityLog } from '../../services/desk/security-log';
import { sweepExpiredUploadSlots, sweepUnreferencedUploads } from '../../services/documents/uploads';

const HOUR_MS = 3_600_000;
/** Any fixed number: the advisory lock that lets one API process do a round at a time. */
const HOUSEKEEPING_LOCK = 160_008;

/**
 * Housekeeping of the tables that only grow: the security log kept a year, ended rate-limit windows and mail
 * counters, expired single sign-on message ids, uploads no document took up within a day (row and bytes), and
 * uploads in progress whose time ran out (a process died receiving them: the place and the partial file). (The raw
 * bytes of received mail are the mail-in process's: mail-in/raw-mail-files.ts.) Runs when the API is ready and then
 * hourly. With several
 * API processes, a transaction-level advisory try-lock lets one of them do a round and the others skip it (each
 * delete is idempotent anyway: the lock only saves duplicate work).
 */
export default fp(async (app) => {
  const round = async () => {
    try {
      await app.orm.em.fork().transactional(async (tx) => {
        // On the transaction's connection: the pool's would take the lock on another connection and drop it at once.
        const { rows: [{ locked }] } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${HOUSEKEEPING_LOCK}) as locked`
          .execute(kysely(tx as EntityManager));
        if (!locked) return;
        await pruneSecurityLog(tx as EntityManager);
        await pruneRateLimitCounters(tx as EntityManager);
        await pruneExpiredSamlMessageIds(tx as EntityManager);
        await pruneChosenAddressMailCounts(tx as EntityManager);
        const removed = await sweepUnreferencedUploads(tx as EntityManager, (name) => app.files.remove(name));
        if (removed.length) app.log.info({ removed: removed.length }, 'removed uploads no document took up');
        const abandoned = await sweepExpiredUploadSlots(tx as EntityManager, (partName) => app.files.remove(partName));
        if (abandoned) app.log.info({ abandoned }, 'removed uploads in progress whose time ran out');
      });
    } catch (err) {
      app.log.error({ err }, 'housekeeping failed');
    }
  };
  let timer: NodeJS.Timeout | undefined;
  // The round in flight: closing waits for it, or the ORM would be closed under its open transaction (a shutdown
  // right after start hung until the hook timeout).
  let running: Promise<void> = Promise.resolve();
  const start = () => { running = running.then(round); };
  app.addHook('onReady', async () => {
    start();
    timer = setInterval(start, HOUR_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}, { name: 'housekeeping' });
