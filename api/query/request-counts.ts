/** The counts of the admin dashboard (spec 2 §7.4, issue #11), each computed by the database in one statement. */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestStatus, RequestType } from '../../domain';
import { columnsOf } from './request-list';
import { whereSql } from './where-sql';

export interface QueueCount { requestType: RequestType; status: RequestStatus; count: number }

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

/** Submissions since the start of the server's local day, month and year, by submit date (spec 2 §7.4). */
export async function submissionCounts(em: EntityManager, now: Date): Promise<{ today: number; monthToDate: number; yearToDate: number }> {
  const startOfDay = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const startOfMonth = new Date(now.getFullYear(), now.getMonth(), 1);
  const startOfYear = new Date(now.getFullYear(), 0, 1);
  const [row] = await em.getConnection().execute<{ today: number; monthToDate: number; yearToDate: number }[]>(
    `select count(*) filter (where "submit_date" >= ?)::int as "today", count(*) filter (where "submit_date" >= ?)::int as "monthToDate",
      count(*)::int as "yearToDate" from "requests" where "submit_date" >= ?`, [startOfDay, startOfMonth, startOfYear], 'all');
  return row;
}
