/**
 * Emails and letters that did not go out, as administrators and monitors see them: failed ones
 * (the retry window passed, or the mail server refused for good) and delayed ones (still being retried).
 */

/**
 * A pending email or letter is "delayed" this long after it was queued. One normally goes out within a second; the
 * retry backoff (1 s doubling) has made about ten attempts in ten minutes, so by then an outage is certain.
 */
export const EFFECT_DELAYED_AFTER_MS = 10 * 60_000;

/** A failed email stays listed this long unless it is sent again: an administrator may decide not to. */
export const EFFECT_PROBLEMS_WINDOW_DAYS = 30;

export type EffectProblemState = 'failed' | 'delayed';

export const EFFECT_PROBLEM_LABELS: Record<EffectProblemState, string> = { failed: 'Failed', delayed: 'Delayed, retrying' };

/** What a problem's email or letter is, in words: the template, or "Letter" for a letter regenerated without one. */
export const effectProblemSubject = (kind: string, templateTitle: string) => (kind === 'letter' ? 'Letter (no email)' : templateTitle);
