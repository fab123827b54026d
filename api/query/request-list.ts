/**
 * Pages of requests at 100,000 rows (issue #11): one SQL statement for the rows (served by the order indexes of
 * Migration20261122090000) and, only when the page does not tell it, one for the total. A total over the four columns
 * `request_counts` is kept by (request type, certificate type, auto type, status: the admin's unfiltered list, a
 * type-label filter, a status group) is a sum of a few dozen rows instead of a count of every request; other totals
 * count the matching rows. Both read the same condition (where-sql.ts), so a total always matches its rows.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { RequestSchema, type Request } from '../../db/entities';
import { badRequest } from '../errors';
import { requestTypeLabelWhere } from '../../domain';
import { fieldsOf, whereSql } from './where-sql';

const COUNTED_FIELDS = new Set(['requestType', 'certificateType', 'autoType', 'status']);

export interface RequestPageQuery {
  where: Record<string, unknown>;
  orderBy: Record<string, 'asc' | 'desc'>;
  limit: number;
  skip: number;
  fields?: string[];
}

/** The conditions of a `requestTypeLabel` query parameter (contract §2); 400 for a label that is not a filter option. */
export function requestTypeLabelCondition(label: unknown): Record<string, unknown> {
  if (label === undefined || label === '') return {};
  const where = typeof label === 'string' ? requestTypeLabelWhere(label) : null;
  if (!where) throw badRequest('Invalid query: unknown request type label', { requestTypeLabel: 'Unknown request type' });
  return where;
}

export function columnsOf(em: EntityManager): (field: string) => string {
  const properties = em.getMetadata(RequestSchema).properties as Record<string, { fieldNames: string[] }>;
  return (field) => `"${properties[field].fieldNames[0]}"`;
}

/** The page's rows as entities of the caller's entity manager, newest first by default. */
export async function findRequestRows(em: EntityManager, query: RequestPageQuery): Promise<Request[]> {
  if (query.limit === 0) return [];
  const column = columnsOf(em);
  const where = whereSql(query.where, column);
  const order = Object.entries(query.orderBy).map(([field, dir]) => `${column(field)} ${dir}`).join(', ');
  const columns = query.fields ? query.fields.map(column).join(', ') : '*';
  const sql = `select ${columns} from "requests" where ${where.sql} order by ${order} limit ${query.limit} offset ${query.skip}`;
  const rows = await em.getConnection().execute<Record<string, unknown>[]>(sql, where.values, 'all');
  return rows.map((row) => em.map(RequestSchema, row));
}

/** How many requests match (exactly, by the database). */
export async function countRequests(em: EntityManager, where: Record<string, unknown>): Promise<number> {
  const column = columnsOf(em);
  const condition = whereSql(where, column);
  const fromCounts = [...fieldsOf(where)].every((f) => COUNTED_FIELDS.has(f));
  const sql = fromCounts
    ? `select coalesce(sum("n"), 0)::int as "total" from "request_counts" where ${condition.sql}`
    : `select count(*)::int as "total" from "requests" where ${condition.sql}`;
  const [row] = await em.getConnection().execute<{ total: number }[]>(sql, condition.values, 'all');
  return row.total;
}

/** A page and its total: the total is counted only when the page does not already show it (a short last page). */
export async function findRequestPage(em: EntityManager, query: RequestPageQuery): Promise<{ rows: Request[]; total: number }> {
  const rows = await findRequestRows(em, query);
  const shortPage = query.limit > 0 && rows.length < query.limit && (rows.length > 0 || query.skip === 0);
  return { rows, total: shortPage ? query.skip + rows.length : await countRequests(em, query.where) };
}
