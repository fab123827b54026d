/**
 * Serializes a query like `qs.stringify(query, { arrayFormat: 'indices' })`: nested objects with brackets, arrays
 * with indexes (`$sort[updatedAt]=-1`, `$or[0][email]=x`). Undefined and null values are left out.
 */
export type QueryValue = string | number | boolean | null | undefined | QueryValue[] | { [key: string]: QueryValue };
export type Query = Record<string, QueryValue>;

export function toQueryString(query: Query): string {
  const parts: string[] = [];
  const add = (key: string, value: QueryValue) => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) value.forEach((item, index) => add(`${key}[${index}]`, item));
    else if (typeof value === 'object') Object.entries(value).forEach(([k, v]) => add(`${key}[${k}]`, v));
    else parts.push(`${encodeKey(key)}=${encodeURIComponent(String(value))}`);
  };
  Object.entries(query).forEach(([key, value]) => add(key, value));
  return parts.join('&');
}

/** Keep `$`, `[` and `]` readable in keys; encode everything else. */
const encodeKey = (key: string) => encodeURIComponent(key).replace(/%24/g, '$').replace(/%5B/g, '[').replace(/%5D/g, ']');
