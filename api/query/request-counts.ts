/** The counts of the admin dashboard (spec 2 §7.4), each computed by the database in one statement. */
import type { EntityManager } from '@mikro-orm/postgresql';
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
  return em.getConnection().execute<QueueCount[]>(
    `select "request_type" as "requestType", "status", sum("n")::int as "count" from "request_counts" where ${condition.sql}
      group by 1, 2 having sum("n") > 0 order by 1, 2`, condition.values, 'all');
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
  const values: unknown[] = [];
  const columns = Object.entries(boundaries).map(([name, from]) => {
    const nextUtcMidnight = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + 1));
    values.push(from, nextUtcMidnight, nextUtcMidnight.toISOString().slice(0, 10));
    return `(select count(*) from "requests" where "submit_date" >= ? and "submit_date" < ?)
      + (select coalesce(sum("n"), 0) from "request_submission_days" where "day" >= ?::date) as "${name}"`;
  });
  const [row] = await em.getConnection().execute<Record<string, string | number>[]>(`select ${columns.join(', ')}`, values, 'all');
  return { today: Number(row.today), monthToDate: Number(row.monthToDate), yearToDate: Number(row.yearToDate) };
}
