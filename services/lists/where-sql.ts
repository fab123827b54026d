/**
 * A parsed list query (feathers-query.ts `where`: exact match, null, $in $ne $lt $lte $gt $gte $like, $or, $and;
 * also $nin for the server's own conditions)
 * as a SQL condition (Kysely's `sql`, every value a bound parameter), with the meaning MikroORM gives the same filter (`$ne: 'x'` leaves out
 * empty columns, an empty `$in` matches nothing). The list routes write their SQL themselves so that the rows and
 * the total of a page are read by the same condition, and a total can come from the counts table
 * (request-list.ts). Every field was checked against the resource's query fields before it gets here.
 */
import { sql, type RawBuilder } from 'kysely';

export type SqlCondition = RawBuilder<unknown>;

const COMPARE: Record<string, string> = { $lt: '<', $lte: '<=', $gt: '>', $gte: '>=', $like: 'like' };

/**
 * A value as a bound parameter. A whole number is bound as bigint: PostgreSQL would otherwise type the parameter as the
 * column's integer and refuse a value past its range (`id >= -2147483649` is a fine question, answered by every row);
 * integer against bigint comparisons still use the column's index.
 */
const valueSql = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? sql`${value}::int8` : sql`${value}`);

/** `column`: a quoted column name from the entity's metadata (never user input). */
function fieldSql(column: string, condition: unknown): SqlCondition {
  const ref = sql.raw(column);
  if (condition === null) return sql`${ref} is null`;
  if (typeof condition !== 'object' || condition instanceof Date) return sql`${ref} = ${valueSql(condition)}`;
  const parts = Object.entries(condition as Record<string, unknown>).map(([op, operand]) => {
    if (op === '$in') {
      const list = operand as unknown[];
      return list.length ? sql`${ref} in (${sql.join(list.map(valueSql))})` : sql`1 = 0`;
    }
    if (op === '$nin') {
      const list = operand as unknown[];
      return list.length ? sql`${ref} not in (${sql.join(list.map(valueSql))})` : sql`true`;
    }
    if (op === '$ne') return operand === null ? sql`${ref} is not null` : sql`${ref} <> ${valueSql(operand)}`;
    return sql`${ref} ${sql.raw(COMPARE[op])} ${valueSql(operand)}`;
  });
  return parts.length === 1 ? parts[0] : sql`(${sql.join(parts, sql` and `)})`;
}

const TRUE: SqlCondition = sql`true`;

function joined(parts: SqlCondition[], operator: 'and' | 'or'): SqlCondition {
  if (!parts.length) return TRUE;
  if (parts.length === 1) return parts[0];
  return sql`(${sql.join(parts, operator === 'and' ? sql` and ` : sql` or `)})`;
}

export function whereSql(where: Record<string, unknown>, columnOf: (field: string) => string): SqlCondition {
  const parts: SqlCondition[] = [];
  for (const [key, value] of Object.entries(where)) {
    if (key === '$or' || key === '$and') {
      const nested = (value as Record<string, unknown>[]).map((q) => whereSql(q, columnOf));
      // An empty list or an empty member constrains nothing (as in MikroORM); an empty `$or` member matches every row.
      if (key === '$or' && nested.some((n) => n === TRUE)) continue;
      const some = nested.filter((n) => n !== TRUE);
      if (some.length) parts.push(joined(some, key === '$or' ? 'or' : 'and'));
      continue;
    }
    parts.push(fieldSql(columnOf(key), value));
  }
  return joined(parts, 'and');
}

/** Every field a condition reads (at any depth). */
export function fieldsOf(where: Record<string, unknown>): Set<string> {
  const fields = new Set<string>();
  const walk = (q: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(q)) {
      if (key === '$or' || key === '$and') (value as Record<string, unknown>[]).forEach(walk);
      else fields.add(key);
    }
  };
  walk(where);
  return fields;
}
