/**
 * The office's daily digest of instant issues (domain/instant-digest.ts): what the rules issued on one office day,
 * and the record that the day's digest went out. The worker's digest activity reads the day, then records and sends
 * inside one transaction: the record's key holds a second run of the same day until the first has committed.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { formatOfficeDateTime, instantDigestKey, officeDayAfter, officeDayStart, requestTypeLabelOf, type InstantDigestRow } from '../../domain';
import { kysely } from '../../db/kysely';

/** Every certificate a rule issued on the office day `day`, in issue order. */
export async function instantIssuesOn(em: EntityManager, day: string, timeZone: string): Promise<InstantDigestRow[]> {
  const rows = await kysely(em).selectFrom('instant_decisions as d').innerJoin('requests as r', 'r.id', 'd.request_id')
    .select(['d.decided_at', 'd.rule_id', 'd.rule_name', 'd.rule_version', 'r.request_number', 'r.request_type', 'r.certificate_type', 'r.auto_type', 'r.certificate_holder'])
    .where('d.outcome', '=', 'issued')
    .where('d.decided_at', '>=', officeDayStart(day, timeZone)).where('d.decided_at', '<', officeDayAfter(day, timeZone))
    .orderBy('d.decided_at').orderBy('d.id').execute();
  return rows.map((r) => ({
    requestNumber: r.request_number,
    kind: requestTypeLabelOf({ requestType: r.request_type, certificateType: r.certificate_type, autoType: r.auto_type }),
    holder: r.certificate_holder,
    ruleId: r.rule_id,
    ruleName: r.rule_name ?? '(a deleted rule)',
    ruleVersion: r.rule_version ?? 0,
    issuedAt: formatOfficeDateTime(r.decided_at, timeZone),
  }));
}

/**
 * Records that the day's digest goes out, on `tx` (the caller sends before committing). False when it already went
 * out: a run that meets another's uncommitted record waits for it, and finds it once that run commits.
 */
export async function recordInstantDigest(tx: EntityManager, digest: { day: string; issued: number; sentTo: string }): Promise<boolean> {
  const inserted = await kysely(tx).insertInto('instant_digests')
    .values({ key: instantDigestKey(digest.day), day: digest.day, issued: digest.issued, sent_to: digest.sentTo })
    .onConflict((c) => c.column('key').doNothing()).returning('key').executeTakeFirst();
  return inserted !== undefined;
}

/** Whether the day's digest went out already (a run that finds it reads nothing more). */
export async function instantDigestSent(em: EntityManager, day: string): Promise<boolean> {
  const row = await kysely(em).selectFrom('instant_digests').select(sql<number>`1`.as('one')).where('key', '=', instantDigestKey(day)).executeTakeFirst();
  return row !== undefined;
}
