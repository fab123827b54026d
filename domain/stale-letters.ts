/**
 * Stale letters: the words an administrator sees when a CS-STARS upload touched the claims an
 * issued claim-history letter covers, and the author names of the audit rows on both sides.
 */
export const STALE_LETTER_LABEL = 'Letter may be out of date';
export const CS_STARS_IMPORT_AUTHOR = 'CS-STARS import';
/** Who generated letters and certificates are stored by (the letter activities write it; the stale rule reads it). */
export const GENERATED_DOCUMENT_AUTHOR = 'COI Automated Document System';
/** The list of claims in the audit row stops after this many claim numbers ("… and N more"). */
export const STALE_LETTER_CLAIMS_LISTED = 10;
