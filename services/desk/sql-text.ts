/** Helpers for hand-written SQL: a contains pattern for LIKE/ILIKE with the user's wildcards escaped. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

