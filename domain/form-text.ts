/** Typed form text as every request kind stores it (spec 2 §5), and the "any errors?" test of a form's messages. */

/**
 * Spec 2 §5: trimmed, curly apostrophes made straight, empty values dropped. The one text-cleaning rule: the forms,
 * the API's stored values and its search texts all call it.
 */
export function cleanText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const cleaned = value.replace(/[\u2018\u2019]/g, "'").trim();
  return cleaned === '' ? undefined : cleaned;
}

/**
 * A middle initial as stored: cleaned text without its periods (`J.` → `J`), undefined when nothing is left. The one
 * middle-initial rule of typed forms: request forms (UI and API) and profiles.
 */
export function cleanMiddleInitial(value: unknown): string | undefined {
  return cleanText(value)?.replace(/\./g, '').trim() || undefined;
}

export const hasErrors = (errors: object): boolean => Object.keys(errors).length > 0;
