/**
 * Feathers-style query strings (spec 2 §7.1) → MikroORM filters. Operators: $limit $skip $sort $select $or $and
 * $like $lte $gte and exact match (also $in $ne $lt $gt). Only listed fields are accepted, so a query can never
 * reach a hidden column, and every value must parse as its field's type: a malformed query is the caller's
 * mistake (400 BadRequest), never a database error (500).
 */
import { badRequest } from '../errors';
import type { FieldKind, QueryFields } from './query-fields';

export { queryFieldsOf, type FieldKind, type QueryFields } from './query-fields';

/** Spec 2 §7.1: the server's query-parse defaults. */
export const QS_OPTIONS = { depth: 5, arrayLimit: 20, parameterLimit: 1000 } as const;
/** Spec 2 §9.1: find answers at most this many records; it is also the default page size. */
const DEFAULT_LIMIT = 1000;
const MAX_NESTING = 4;

interface FindParams {
  where: Record<string, unknown>;
  limit: number;
  skip: number;
  orderBy: Record<string, 'asc' | 'desc'>;
  fields?: string[];
}

const PAGING_KEYS = new Set(['$limit', '$skip', '$sort', '$select']);
const COMPARISONS = new Set(['$lt', '$lte', '$gt', '$gte']);
const FIELD_OPERATORS = new Set([...COMPARISONS, '$like', '$in', '$ne']);

const EXPECTED: Record<FieldKind, string> = {
  integer: 'an integer',
  number: 'a number',
  date: 'a date (ISO 8601, e.g. 2024-01-31T11:00:00.000Z)',
  boolean: 'true or false',
  string: 'text',
};

const invalid = (field: string, message: string) => badRequest(`Invalid query: ${message}`, { [field]: message });

const INTEGER = /^-?\d{1,15}$/;
const NUMBER = /^-?\d{1,15}(\.\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** One value of a field, as its type. `null` (the text "null") matches an empty column. */
function valueOf(kind: FieldKind, raw: unknown, field: string, allowNull = true): unknown {
  if (raw === 'null' || raw === null) {
    if (allowNull) return null;
    throw invalid(field, `${field} cannot be compared with null`);
  }
  const text = typeof raw === 'number' || typeof raw === 'boolean' ? String(raw) : raw;
  if (typeof text !== 'string') throw invalid(field, `${field} must be ${EXPECTED[kind]}`);
  switch (kind) {
    case 'string': return text;
    case 'integer': if (INTEGER.test(text)) return Number(text); break;
    case 'number': if (NUMBER.test(text)) return Number(text); break;
    case 'boolean': if (text === 'true' || text === 'false') return text === 'true'; break;
    case 'date': if (ISO_DATE.test(text) && !Number.isNaN(Date.parse(text))) return new Date(text); break;
  }
  throw invalid(field, `${field} must be ${EXPECTED[kind]}`);
}

/** qs turns `a[0]=x` into an array, but `a[25]=x` (past the array limit) into an object: accept both shapes. */
function listOf(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === 'object') return Object.values(value);
  return null;
}

function conditionOf(kind: FieldKind, value: unknown, field: string): unknown {
  if (Array.isArray(value)) throw invalid(field, `${field} takes one value (use $in for several)`);
  if (value === null || typeof value !== 'object') return valueOf(kind, value, field);
  const condition: Record<string, unknown> = {};
  for (const [op, operand] of Object.entries(value as Record<string, unknown>)) {
    if (!FIELD_OPERATORS.has(op)) throw invalid(field, `unknown operator ${op}`);
    if (op === '$like') {
      if (kind !== 'string') throw invalid(field, `$like applies to text fields only, not ${field}`);
      condition.$like = valueOf(kind, operand, field, false);
    } else if (op === '$in') {
      const list = listOf(operand);
      if (!list) throw invalid(field, '$in must be an array');
      condition.$in = list.map((item) => valueOf(kind, item, field, false));
    } else if (COMPARISONS.has(op)) {
      if (kind === 'boolean') throw invalid(field, `${op} does not apply to ${field} (true or false)`);
      condition[op] = valueOf(kind, operand, field, false);
    } else {
      condition[op] = valueOf(kind, operand, field); // $ne
    }
  }
  return condition;
}

function whereOf(query: Record<string, unknown>, fields: QueryFields, depth = 0): Record<string, unknown> {
  if (depth > MAX_NESTING) throw badRequest('Query is nested too deeply');
  const where: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (depth === 0 && PAGING_KEYS.has(key)) continue;
    if (key === '$or' || key === '$and') {
      const list = listOf(value);
      if (!list || list.some((q) => q === null || typeof q !== 'object' || Array.isArray(q))) {
        throw invalid(key, '$and, $or and $select must be arrays');
      }
      where[key] = list.map((q) => whereOf(q as Record<string, unknown>, fields, depth + 1));
      continue;
    }
    const kind = fields[key];
    if (!kind) throw invalid(key, `unknown field ${key}`);
    where[key] = conditionOf(kind, value, key);
  }
  return where;
}

function countOf(name: '$limit' | '$skip', value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,15}$/.test(text)) throw invalid(name, `${name} must be a non-negative integer`);
  return Number(text);
}

function orderOf(sort: unknown, fields: QueryFields): Record<string, 'asc' | 'desc'> {
  if (sort === undefined) return {};
  if (sort === null || typeof sort !== 'object' || Array.isArray(sort)) throw invalid('$sort', '$sort must be an object');
  const orderBy: Record<string, 'asc' | 'desc'> = {};
  for (const [field, direction] of Object.entries(sort)) {
    if (!fields[field]) throw invalid('$sort', `unknown sort field ${field}`);
    const dir = String(direction);
    if (dir !== '1' && dir !== '-1') throw invalid('$sort', `$sort[${field}] must be 1 or -1`);
    orderBy[field] = dir === '-1' ? 'desc' : 'asc';
  }
  return orderBy;
}

function selectOf(select: unknown, fields: QueryFields): string[] | undefined {
  if (select === undefined) return undefined;
  const list = listOf(select);
  if (!list) throw invalid('$select', '$and, $or and $select must be arrays');
  const chosen = list.map(String);
  const unknown = chosen.find((f) => !fields[f]);
  if (unknown !== undefined) throw invalid('$select', `unknown field ${unknown}`);
  return chosen.includes('id') ? chosen : ['id', ...chosen];
}

export function parseFindQuery(query: Record<string, unknown>, fields: QueryFields, defaultLimit = DEFAULT_LIMIT): FindParams {
  // Like Feathers' paginate.max: a larger $limit is capped, not refused.
  const limit = Math.min(countOf('$limit', query.$limit) ?? defaultLimit, DEFAULT_LIMIT);
  const skip = countOf('$skip', query.$skip) ?? 0;
  return {
    where: whereOf(query, fields), limit, skip,
    orderBy: orderOf(query.$sort, fields),
    fields: selectOf(query.$select, fields),
  };
}
