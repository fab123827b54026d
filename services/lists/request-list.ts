/**
 * Pages of requests at 100,000 rows: one SQL statement for the rows (served by the order indexes of
 * Migration20261122090000) and, only when the page does not tell it, one for the total. A total over the four columns
 * `request_counts` is kept by (request type, certificate type, auto type, status: the admin's unfiltered list, a
 * type-label filter, a status group) is a sum of a few dozen rows instead of a count of every request; other totals
 * count the matching rows. Both read the same condition (where-sql.ts), so a total always matches its rows.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { kysely } from '../../db/kysely';
import { RequestSchema } from '../../db/entities';
import type { RequestRecord } from '../../contract/request.schema';
import { invalid } from '../refusals';
import { requestTypeLabelWhere } from '../../domain';
import type { RequestOwner } from '../requests/request-access';
import { fieldsOf, whereSql, type SqlCondition } from './where-sql';

const COUNTED_FIELDS = new Set(['requestType', 'certificateType', 'autoType', 'status']);

interface RequestPageQuery {
  where: Record<string, unknown>;
  orderBy: Record<string, 'asc' | 'desc'>;
  limit: number;
  skip: number;
  fields?: string[];
  /** a requester's visibility (services/requests/request-access.ts); none for an administrator */
  owner?: RequestOwner | null;
}

/**
 * A requester sees the requests they filed or that name their email. Read as two disjoint parts (filed; naming
 * the email but filed by someone else), each part follows its own index, (requester_id, updated_at, id) or
 * (email, updated_at, id), instead of an OR that must visit every one of a hospital account's thousands of rows.
 */
function ownerParts(owner: RequestOwner): SqlCondition[] {
  const filed = sql`"requester_id" = ${owner.requesterId}`;
  // no proven address: only what they filed
  if (!owner.email) return [filed];
  return [filed, sql`"email" = ${owner.email} and "requester_id" <> ${owner.requesterId}`];
}

/** The conditions of a `requestTypeLabel` query parameter (contract §2); 400 for a label that is not a filter option. */
export function requestTypeLabelCondition(label: unknown): Record<string, unknown> {
  if (label === undefined || label === '') return {};
  const where = typeof label === 'string' ? requestTypeLabelWhere(label) : null;
  if (!where) throw invalid('Invalid query: unknown request type label', { requestTypeLabel: 'Unknown request type' });
  return where;
}

export function columnsOf(em: EntityManager): (field: string) => string {
  const properties = em.getMetadata(RequestSchema).properties as Record<string, { fieldNames: string[] }>;
  return (field) => `"${properties[field].fieldNames[0]}"`;
}

/**
 * The select list of a page: each property's column under the property's own name, so a row arrives as a record
 * and only its timestamps (answered by the driver as text) are parsed, as MikroORM's hydration would (with its
 * platform's parser): no entity, no identity map, no renaming pass (most of a list call's CPU went there).
 */
interface Selection { sql: string; timestamps: string[] }
let properties: { name: string; column: string; timestamp: boolean }[] | null = null;
const selections = new Map<string, Selection>();
function selectionOf(em: EntityManager, fields: readonly string[] | undefined): Selection {
  const key = fields?.join() ?? '*';
  let selection = selections.get(key);
  if (!selection) {
    properties ??= Object.entries(em.getMetadata(RequestSchema).properties as Record<string, { fieldNames?: string[]; runtimeType?: string }>)
      .filter(([, p]) => p.fieldNames?.length === 1)
      .map(([name, p]) => ({ name, column: p.fieldNames![0], timestamp: p.runtimeType === 'Date' }));
    const chosen = fields ? properties.filter((p) => fields.includes(p.name)) : properties;
    selection = {
      sql: chosen.map((p) => (p.column === p.name ? `"${p.column}"` : `"${p.column}" as "${p.name}"`)).join(', '),
      timestamps: chosen.filter((p) => p.timestamp).map((p) => p.name),
    };
    selections.set(key, selection); // one entry per distinct $select: bounded by the few the UI asks for
    if (selections.size > 100) selections.clear();
  }
  return selection;
}

function recordOf(em: EntityManager, row: Record<string, unknown>, timestamps: readonly string[]): RequestRecord {
  const platform = em.getPlatform();
  for (const name of timestamps) {
    const value = row[name];
    if (typeof value === 'string') row[name] = platform.parseDate(value);
  }
  return row as unknown as RequestRecord;
}

/** The page's rows as records (every column the response may carry: the route's caller rules and schema trim them). */
export async function findRequestRows(em: EntityManager, query: RequestPageQuery): Promise<RequestRecord[]> {
  if (query.limit === 0) return [];
  const column = columnsOf(em);
  const where = whereSql(query.where, column);
  // Column names and directions come from the entity's metadata and the checked query, never from the caller's text.
  const order = sql.raw(Object.entries(query.orderBy).map(([field, dir]) => `${column(field)} ${dir}`).join(', '));
  const selection = selectionOf(em, query.fields);
  const columns = sql.raw(selection.sql);
  const each = (part: SqlCondition) => sql`(select * from "requests" where ${where} and ${part} order by ${order} limit ${query.limit + query.skip})`;
  const statement = query.owner
    ? sql<Record<string, unknown>>`select ${columns} from (${sql.join(ownerParts(query.owner).map(each), sql` union all `)}) as "visible"
        order by ${order} limit ${query.limit} offset ${query.skip}`
    : sql<Record<string, unknown>>`select ${columns} from "requests" where ${where} order by ${order} limit ${query.limit} offset ${query.skip}`;
  const { rows } = await statement.execute(kysely(em));
  return rows.map((row) => recordOf(em, row, selection.timestamps));
}

/** How many requests match (exactly, by the database), of those the owner sees if given. */
export async function countRequests(em: EntityManager, where: Record<string, unknown>, owner?: RequestOwner | null): Promise<number> {
  const column = columnsOf(em);
  const condition = whereSql(where, column);
  const part = (owned: SqlCondition) => sql`(select count(*) from "requests" where ${condition} and ${owned})`;
  const statement = owner
    ? sql<{ total: string }>`select ${sql.join(ownerParts(owner).map(part), sql` + `)} as "total"`
    : [...fieldsOf(where)].every((f) => COUNTED_FIELDS.has(f))
      ? sql<{ total: string }>`select coalesce(sum("n"), 0) as "total" from "request_counts" where ${condition}`
      : sql<{ total: string }>`select count(*) as "total" from "requests" where ${condition}`;
  const { rows: [row] } = await statement.execute(kysely(em));
  return Number(row.total);
}

/** A page and its total: the total is counted only when the page does not already show it (a short last page). */
export async function findRequestPage(em: EntityManager, query: RequestPageQuery): Promise<{ rows: RequestRecord[]; total: number }> {
  const rows = await findRequestRows(em, query);
  const shortPage = query.limit > 0 && rows.length < query.limit && (rows.length > 0 || query.skip === 0);
  return { rows, total: shortPage ? query.skip + rows.length : await countRequests(em, query.where, query.owner) };
}
