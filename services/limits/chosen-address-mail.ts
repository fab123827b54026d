/**
 * Emails to addresses a user chose (domain/abuse-limits.ts CHOSEN_ADDRESS_MAIL_LIMITS): reserved before anything is
 * sent or saved, per user and per target address, in PostgreSQL so every API process counts in the same rows.
 *
 * One transaction: each counter is an upsert that starts a new window when the old one ended and adds the emails
 * about to go out, returning the new count. The row lock the upsert takes holds a concurrent reservation of the same
 * key until this one commits, so two calls can never both take the last place. When any count passes its limit the
 * transaction rolls back: a refused call uses up nothing, and the caller answers 429 with Retry-After.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { CHOSEN_ADDRESS_MAIL_LIMITS, chosenAddressMailMessage, type ChosenAddressMail, type WindowLimit } from '../../domain/abuse-limits';
import { kysely } from '../../db/kysely';
import { overQuota } from '../refusals';
import { recordSecurityEvent } from '../desk/security-log';

/** Adds `n` emails to `key`'s window (a new one when the old one ended) and answers the window's count. */
const reserve = (key: string, n: number, windowMs: number) => sql<{ sent: number; retry_after_seconds: number }>`
  insert into "chosen_address_mail_counts" as c ("key", "sent", "window_ends") values (${key}, ${n}, now() + ${windowMs} * interval '1 millisecond')
  on conflict ("key") do update set
    "sent" = case when c."window_ends" <= now() then excluded."sent" else c."sent" + excluded."sent" end,
    "window_ends" = case when c."window_ends" <= now() then excluded."window_ends" else c."window_ends" end
  returning "sent", greatest(1, ceil(extract(epoch from ("window_ends" - now()))))::int as "retry_after_seconds"`;

/** Who sends: the user's id (null before an account exists, at registration) and whether they are staff. */
interface MailSender { userId: number | null; isAdmin?: boolean; email?: string | null; ip?: string | null }

class OverLimit extends Error {
  constructor(readonly scope: 'perUser' | 'perAddress', readonly limit: number, readonly retryAfterSeconds: number) { super('over limit'); }
}

/**
 * Reserves one email to each of `addresses` (lowercased, duplicates once) for `sender`, or throws 429. Addresses the
 * sender does not choose (their own address in force) may be passed too: they count like any other.
 */
export async function reserveChosenAddressMail(em: EntityManager, kind: ChosenAddressMail, sender: MailSender, addresses: string[]): Promise<void> {
  const targets = [...new Set(addresses.map((a) => a.trim().toLowerCase()).filter(Boolean))];
  if (!targets.length || sender.isAdmin) return;
  const limits = CHOSEN_ADDRESS_MAIL_LIMITS[kind];
  const counters: Array<{ key: string; n: number; limit: WindowLimit; scope: 'perUser' | 'perAddress' }> = [
    ...(sender.userId === null ? [] : [{ key: `user|${kind}|${sender.userId}`, n: targets.length, limit: limits.perUser, scope: 'perUser' as const }]),
    ...targets.map((address) => ({ key: `address|${kind}|${address}`, n: 1, limit: limits.perAddress, scope: 'perAddress' as const })),
  ].sort((a, b) => a.key.localeCompare(b.key)); // one locking order: two reservations never wait on each other
  try {
    await em.fork().transactional(async (tx) => {
      for (const counter of counters) {
        const { rows: [row] } = await reserve(counter.key, counter.n, counter.limit.windowMs).execute(kysely(tx));
        if (Number(row.sent) > counter.limit.max) throw new OverLimit(counter.scope, counter.limit.max, Number(row.retry_after_seconds));
      }
    });
  } catch (error) {
    if (!(error instanceof OverLimit)) throw error;
    await recordSecurityEvent(em, {
      kind: 'quotaRefused', userId: sender.userId, email: sender.email ?? null, ip: sender.ip ?? null,
      detail: { quota: `chosenAddressMail.${kind}.${error.scope}`, limit: error.limit },
    });
    throw overQuota(chosenAddressMailMessage(error.scope, error.retryAfterSeconds),
      { reason: 'tooManyEmails', scope: error.scope, limit: error.limit, retryAfterSeconds: error.retryAfterSeconds });
  }
}

/** Removes counters whose window ended (the hourly housekeeping). */
export async function pruneChosenAddressMailCounts(em: EntityManager): Promise<void> {
  await kysely(em).deleteFrom('chosen_address_mail_counts').where('window_ends', '<=', sql<Date>`now()`).execute();
}
