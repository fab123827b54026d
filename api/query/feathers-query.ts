/**
 * Feathers-style query strings (spec 2 §7.1) → MikroORM filters. Operators: $limit $skip $sort $select $or $and
 * $like $lte $gte and exact match; only whitelisted fields are accepted, so a query can never reach a hidden column.
 */
import { badRequest } from '../errors';

export const QS_OPTIONS = { depth: 5, arrayLimit: 20, parameterLimit: 1000 } as const;
export const DEFAULT_LIMIT = 1000;

export interface FindParams {
  where: Record<string, unknown>;
  limit: number;
  skip: number;
  orderBy: Record<string, 'asc' | 'desc'>;
  fields?: string[];
}

const FIELD_OPERATORS = new Set(['$like', '$lte', '$gte', '$in', '$ne', '$lt', '$gt']);

function toCondition(value: unknown, field: string): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    if (Array.isArray(value)) throw badRequest(`Invalid query value for ${field}`);
    return value === 'null' ? null : value;
  }
  const out: Record<string, unknown> = {};
  for (const [op, operand] of Object.entries(value as Record<string, unknown>)) {
    if (!FIELD_OPERATORS.has(op)) throw badRequest(`Invalid query operator ${op}`);
    if (op === '$in' && !Array.isArray(operand)) throw badRequest('$in must be an array');
    out[op] = operand;
  }
  return out;
}

function toWhere(query: Record<string, unknown>, fields: ReadonlySet<string>, depth = 0): Record<string, unknown> {
  if (depth > 4) throw badRequest('Query is nested too deeply');
  const where: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (['$limit', '$skip', '$sort', '$select'].includes(key)) continue;
    if (key === '$or' || key === '$and') {
      const list = Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value) : null;
      if (!list) throw badRequest('$and, $or and $select must be arrays');
      where[key] = list.map((q) => toWhere(q as Record<string, unknown>, fields, depth + 1));
      continue;
    }
    if (!fields.has(key)) throw badRequest(`Invalid query field ${key}`);
    where[key] = toCondition(value, key);
  }
  return where;
}

export function parseFindQuery(query: Record<string, unknown>, fields: ReadonlySet<string>, defaultLimit = DEFAULT_LIMIT): FindParams {
  const limit = Math.min(Math.max(Number(query.$limit ?? defaultLimit) || 0, 0), DEFAULT_LIMIT);
  const skip = Math.max(Number(query.$skip ?? 0) || 0, 0);
  const orderBy: Record<string, 'asc' | 'desc'> = {};
  const sort = query.$sort;
  if (sort !== undefined) {
    if (typeof sort !== 'object' || sort === null) throw badRequest('$sort must be an object');
    for (const [field, dir] of Object.entries(sort)) {
      if (!fields.has(field)) throw badRequest(`Invalid sort field ${field}`);
      orderBy[field] = Number(dir) < 0 ? 'desc' : 'asc';
    }
  }
  let select: string[] | undefined;
  if (query.$select !== undefined) {
    const list = Array.isArray(query.$select) ? query.$select : typeof query.$select === 'object' ? Object.values(query.$select!) : null;
    if (!list) throw badRequest('$and, $or and $select must be arrays');
    select = list.map(String).filter((f) => fields.has(f));
    if (!select.includes('id')) select.unshift('id');
  }
  return { where: toWhere(query, fields), limit, skip, orderBy, fields: select };
}

export interface Page<T> { total: number; limit: number; skip: number; data: T[] }
