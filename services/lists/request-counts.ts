/** The counts of the admin dashboard (spec 2 §7.4), each computed by the database in one statement. */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { kysely } from '../../db/kysely';
import { officeDayStart, officePeriodStarts, type RequestStatus, type RequestType } from '../../domain';
import { columnsOf } from './request-list';
import { whereSql } from './where-sql';

interface QueueCount { requestType: RequestType; status: RequestStatus; count: number }

/**
 * How many requests match `where` of each request type and status, from `request_counts` (kept exactly by triggers,
 * Migration20261122090000): `where` may read only request type, certificate type, auto type and status.
 */
export async function queueCounts(em: EntityManager, where: Record<string, unknown>): Promise<QueueCount[]> {
  const condition = whereSql(where, columnsOf(em));
  const { rows } = await sql<QueueCount>`
    select "request_type" as "requestType", "status", sum("n")::int as "count" from "request_counts" where ${condition}
      group by 1, 2 having sum("n") > 0 order by 1, 2`.execute(kysely(em));
  return rows;
}

/**
 * Submissions since the start of the office's day, month and year, by submit date (spec 2 §7.4): for each
 * boundary, the rows between it and the next UTC midnight (an index range of under a day) plus the whole UTC days
 * after it from `request_submission_days` (kept exactly by triggers, Migration20261122090000).
 */
export async function submissionCounts(em: EntityManager, now: Date, timeZone: string): Promise<{ today: number; monthToDate: number; yearToDate: number }> {
  const starts = officePeriodStarts(timeZone, now.getTime());
  const boundaries = {
    today: officeDayStart(starts.today, timeZone),
    monthToDate: officeDayStart(starts.month, timeZone),
    yearToDate: officeDayStart(starts.year, timeZone),
  };
  const columns = Object.entries(boundaries).map(([name, from]) => {
    const nextUtcMidnight = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + 1));
    return sql`(select count(*) from "requests" where "submit_date" >= ${from} and "submit_date" < ${nextUtcMidnight})
      + (select coalesce(sum("n"), 0) from "request_submission_days" where "day" >= ${nextUtcMidnight.toISOString().slice(0, 10)}::date) as ${sql.ref(name)}`;
  });
  const { rows: [row] } = await sql<Record<keyof typeof boundaries, string>>`select ${sql.join(columns)}`.execute(kysely(em));
  return { today: Number(row.today), monthToDate: Number(row.monthToDate), yearToDate: Number(row.yearToDate) };
}
