/** Limits of spec 2 §9.1 used by more than one layer. */
export const INTERNAL_NOTES_MAX = 2500;
export const MESSAGE_MAX = 800;
export const AUTOSAVE_DELAY_MS = 750;
/**
 * Additional recipients: a list of addresses split on spaces, semicolons and commas (spec 2 §7.9). The spec
 * names no limit; 1,000 characters hold about 25 addresses, and the column is that wide.
 */
export const ADDL_RECIPIENTS_MAX = 1000;
/** Spec 2 §9.1 limits of the administrators' desk. */
export const FAQ_QUESTION_MAX = 120;
export const FAQ_ANSWER_MAX = 1536;
export const EMAIL_SUBJECT_MAX = 100;
export const EMAIL_BODY_MAX = 2500;
export const TEXT_INPUT_MAX = 200;
export const SEARCH_DEFAULT_LIMIT = 15;
export const CS_STARS_PAGE_SIZE = 10000;
/** A year of CS-STARS rows is a few MB; 100,000 rows are about 20 MB. Our cap (the spec names none). */
export const CS_STARS_MAX_BYTES = 128 * 1024 * 1024;
/** The refusal of a document upload past the size limit (UPLOAD_MAX_BYTES): HTTP 413. */
export const uploadTooLargeMessage = (maxBytes: number) => `The file is larger than ${Math.round(maxBytes / 1048576)} MB`;
/**
 * A roster uploaded in bulk (domain/rosters.ts): at most this many rows (a credentialing office verifies dozens of
 * clinicians at a time; 500 covers the largest), and at most this many bytes (500 rows of every column, typed in full,
 * stay well under it).
 */
export const ROSTER_MAX_ROWS = 500;
export const ROSTER_MAX_BYTES = 2 * 1024 * 1024;
/** Rows of a roster a page of its table shows. */
export const ROSTER_PAGE_SIZE = 100;
