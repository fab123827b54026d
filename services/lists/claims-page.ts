/**
 * A page of CS-STARS claims as plain records, read by one SQL statement (where-sql.ts), never as entities. The CS-STARS
 * screen and every upload's answer ask for up to 10,000 claims at once: as MikroORM entities (each with its identity
 * map entry and its snapshot of loaded values) such a page held about 150 MiB of an API's heap until the answer was
 * written (docs/PROCESSES.md "Memory"). Rows arrive under the properties' own names; only the timestamps, which the
 * driver answers as text, are parsed, as MikroORM's hydration would.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { kysely } from '../../db/kysely';
import { ClaimDataSchema, type ClaimData } from '../../db/entities';
import { whereSql } from './where-sql';

interface ClaimsPageQuery { where: Record<string, unknown>; orderBy: Record<string, 'asc' | 'desc'>; limit: number; skip: number }
type ClaimRecord = Omit<ClaimData, 'createdAt' | 'updatedAt'>;

interface Column { name: string; column: string; timestamp: boolean }
let columns: Column[] | null = null;

function columnsOf(em: EntityManager): Column[] {
  columns ??= Object.entries(em.getMetadata(ClaimDataSchema).properties as Record<string, { fieldNames?: string[]; runtimeType?: string }>)
    .filter(([name, p]) => p.fieldNames?.length === 1 && name !== 'createdAt' && name !== 'updatedAt')
    .map(([name, p]) => ({ name, column: p.fieldNames![0], timestamp: p.runtimeType === 'Date' }));
  return columns;
}

export async function findClaimsPage(em: EntityManager, query: ClaimsPageQuery): Promise<{ data: ClaimRecord[]; total: number }> {
  const all = columnsOf(em);
  const byName = new Map(all.map((c) => [c.name, c.column]));
  const columnOf = (field: string) => `"${byName.get(field)}"`;
  const where = whereSql(query.where, columnOf);
  // Column names and directions come from the entity's metadata and the checked query, never from the caller's text.
  const select = sql.raw(all.map((c) => (c.column === c.name ? `"${c.column}"` : `"${c.column}" as "${c.name}"`)).join(', '));
  const order = sql.raw(Object.entries(query.orderBy).map(([field, dir]) => `${columnOf(field)} ${dir}`).join(', '));
  const db = kysely(em);
  const [{ rows }, { rows: [counted] }] = await Promise.all([
    sql<Record<string, unknown>>`select ${select} from "claims_data" where ${where} order by ${order} limit ${query.limit} offset ${query.skip}`.execute(db),
    sql<{ total: string }>`select count(*) as "total" from "claims_data" where ${where}`.execute(db),
  ]);
  const platform = em.getPlatform();
  const timestamps = all.filter((c) => c.timestamp).map((c) => c.name);
  for (const row of rows) {
    for (const name of timestamps) if (typeof row[name] === 'string') row[name] = platform.parseDate(row[name] as string);
  }
  return { data: rows as unknown as ClaimRecord[], total: Number(counted.total) };
}
