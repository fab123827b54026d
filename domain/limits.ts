/** Limits of spec 2 §9.1 used by more than one layer. */
export const INTERNAL_NOTES_MAX = 2500;
export const MESSAGE_MAX = 800;
export const AUTOSAVE_DELAY_MS = 750;
/**
 * Additional recipients: a list of addresses split on spaces, semicolons and commas (spec 2 §7.9). The spec
 * names no limit; 1,000 characters hold about 25 addresses, and the column is that wide.
 */
export const ADDL_RECIPIENTS_MAX = 1000;
