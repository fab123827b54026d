/**
 * The raw bytes of received mail (the .eml the listener or the mailbox poller stored) are removed once their message
 * was processed INBOUND_RAW_KEEP_DAYS ago; the row stays, its `stored_name` cleared. Run by the mail-in process at
 * its start and hourly (mail-in/main.ts); rounds of several such processes at once do no harm.
 * The bytes go first, then the row's name: a process that dies between the two leaves a name whose file is gone,
 * which the next round removes again (a missing file is no error) and then clears.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { pooled } from '../db/kysely';
import { INBOUND_RAW_KEEP_DAYS } from '../domain/inbound-mail';

const BATCH = 500;

/** Removes the bytes of messages processed before the keep period; answers how many. */
export async function pruneInboundMessageFiles(em: EntityManager, removeBytes: (storedName: string) => Promise<void>, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - INBOUND_RAW_KEEP_DAYS * 86_400_000);
  const db = pooled(em);
  let removed = 0;
  for (;;) {
    const rows = await db.selectFrom('inbound_messages').select(['id', 'stored_name'])
      .where('state', '<>', 'received').where('stored_name', 'is not', null).where('processed_at', '<', before)
      .orderBy('id').limit(BATCH).execute();
    for (const row of rows) await removeBytes(row.stored_name!);
    if (rows.length) await db.updateTable('inbound_messages').set({ stored_name: null }).where('id', 'in', rows.map((row) => row.id)).execute();
    removed += rows.length;
    if (rows.length < BATCH) return removed;
  }
}
