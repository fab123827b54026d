/** Helpers for hand-written SQL: a contains pattern for LIKE/ILIKE with the user's wildcards escaped. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The start of a calendar day (yyyy-mm-dd) in the server's local time zone, the office's. */
export function localDayStart(day: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d);
}

/** The start of the day after `day`: the exclusive end of an inclusive day range. */
export function localDayAfter(day: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d + 1);
}
