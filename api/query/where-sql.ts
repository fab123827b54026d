/**
 * A parsed list query (feathers-query.ts `where`: exact match, null, $in $ne $lt $lte $gt $gte $like, $or, $and;
 * also $nin for the server's own conditions)
 * as a SQL condition with `?` placeholders, with the meaning MikroORM gives the same filter (`$ne: 'x'` leaves out
 * empty columns, an empty `$in` matches nothing). The list routes write their SQL themselves so that the rows and
 * the total of a page are read by the same condition, and a total can come from the counts table
 * (request-list.ts). Every field was checked against the resource's query fields before it gets here.
 */
export interface SqlCondition { sql: string; values: unknown[] }

const COMPARE: Record<string, string> = { $lt: '<', $lte: '<=', $gt: '>', $gte: '>=', $like: 'like' };

function fieldSql(column: string, condition: unknown, values: unknown[]): string {
  if (condition === null) return `${column} is null`;
  if (typeof condition !== 'object' || condition instanceof Date) { values.push(condition); return `${column} = ?`; }
  const parts = Object.entries(condition as Record<string, unknown>).map(([op, operand]) => {
    if (op === '$in') {
      const list = operand as unknown[];
      if (!list.length) return '1 = 0';
      values.push(...list);
      return `${column} in (${list.map(() => '?').join(', ')})`;
    }
    if (op === '$nin') {
      const list = operand as unknown[];
      if (!list.length) return 'true';
      values.push(...list);
      return `${column} not in (${list.map(() => '?').join(', ')})`;
    }
    if (op === '$ne') {
      if (operand === null) return `${column} is not null`;
      values.push(operand);
      return `${column} <> ?`;
    }
    values.push(operand);
    return `${column} ${COMPARE[op]} ?`;
  });
  return parts.length === 1 ? parts[0] : `(${parts.join(' and ')})`;
}

const TRUE: SqlCondition = { sql: 'true', values: [] };

function joined(parts: SqlCondition[], operator: 'and' | 'or'): SqlCondition {
  if (!parts.length) return TRUE;
  if (parts.length === 1) return parts[0];
  return { sql: `(${parts.map((p) => p.sql).join(` ${operator} `)})`, values: parts.flatMap((p) => p.values) };
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
    const values: unknown[] = [];
    parts.push({ sql: fieldSql(columnOf(key), value, values), values });
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
