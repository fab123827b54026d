/** Amounts of US dollars as typed on the desk (policy limits, a claim's indemnity paid): one parser, one message. */

/** "$2,565,400" / "2565400.5" → "2565400.50"; null when it is not an amount of US dollars. */
export function parseMoney(text: string | number | null | undefined): string | null {
  if (text === null || text === undefined) return null;
  const cleaned = String(text).trim().replace(/^\$/, '').replace(/,/g, '');
  if (!/^-?\d{1,13}(\.\d{1,2})?$/.test(cleaned)) return null;
  return Number(cleaned).toFixed(2);
}

export const MONEY_MESSAGE = 'Please enter an amount in US dollars, e.g. 2,565,400.00';
