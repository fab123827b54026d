/** Typed form text as every request kind stores it (spec 2 §5), and the "any errors?" test of a form's messages. */

/** Spec 2 §5: trimmed, curly apostrophes made straight, empty values dropped. */
export function cleanText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const cleaned = value.replace(/[\u2018\u2019]/g, "'").trim();
  return cleaned === '' ? undefined : cleaned;
}

export const hasErrors = (errors: object): boolean => Object.keys(errors).length > 0;
