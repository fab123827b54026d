/**
 * The daily digest of instant certificates (domain/instant-digest.ts), shared by the worker (which schedules it),
 * tests and the workflow. Safe for the workflow bundle: names and types only.
 */
export const INSTANT_DIGEST_WORKFLOW = 'instantDigestWorkflow';

/** The Temporal Schedule that runs the digest once a day (worker/instant-digest-schedule.ts). */
export const INSTANT_DIGEST_SCHEDULE_ID = 'instant-digest';

/** `day`: the office day to report on (yyyy-mm-dd); without it, the office day before the run. */
export interface InstantDigestInput { day?: string }
