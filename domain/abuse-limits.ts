/**
 * Abuse limits (issue #16 item 5): how often a caller may try to sign in, and how much one user may create. The
 * spec names none of these; they are set well above what an honest user does in a day at the office, so that only
 * scripts meet them. Counted in PostgreSQL (api/services/rate-limits.ts, api/services/quotas.ts), so every API
 * process sees the same counts.
 */

/** A fixed window: at most `max` events per `windowMs`. */
export interface WindowLimit { max: number; windowMs: number }

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Password sign-ins that are not yet known to have succeeded. Each attempt takes its place in its windows before the
 * password is checked (a burst cannot slip past a window while the checks run) and gives it back when it succeeds, so
 * the windows count failures. None of them locks an account: each window passes on its own. A browser that signed in
 * to an account before (its HttpOnly device cookie vouches for it) is exempt from that account's and its address's
 * counts and only meets its own, so an attacker's failures cannot keep the owner out.
 *
 * A full address window refuses no one: an office of hundreds of staff shares one address, and one careless script
 * there must not keep the rest out. Past it, each attempt from a browser the account does not know must carry a solved
 * proof-of-work check (ALTCHA, as registration has): a person solves one in a second, a sprayer pays for every guess.
 */
export const SIGN_IN_LIMITS = {
  /** failures on one account from browsers it does not know, whatever their address: past it, 429 */
  account: { max: 20, windowMs: 5 * MINUTE },
  /** failures from one client address across every email (password spraying): past it, a solved check is required */
  address: { max: 50, windowMs: 15 * MINUTE },
  /** failures from one known browser: past it, 429 */
  knownDevice: { max: 20, windowMs: 5 * MINUTE },
} as const satisfies Record<string, WindowLimit>;

/**
 * Password hashing (argon2id, 19 MiB and about 30 ms of one core each) in one API process: at most `concurrency` at
 * once, at most `queue` waiting; one more is answered 503 with Retry-After rather than left to pile up on the thread
 * pool that file reads share. Two at once keep both cores of a small host busy; the queue drains in well under a
 * second.
 */
export const PASSWORD_HASHING = { concurrency: 2, queue: 32, retryAfterSeconds: 2 } as const;

/** The sign-in answers of these limits (a full address window is not a refusal: it asks for the check). */
export const SIGN_IN_MESSAGES = {
  checkRequired: 'Many sign-ins failed from your network. Please solve the check below, then select Log In again.',
  hashingBusy: 'The portal is busy signing people in. Please try again in a few seconds.',
} as const;

/** How long a browser stays known to an account after its last successful sign-in there. */
export const KNOWN_DEVICE_DAYS = 180;
/** The accounts one browser remembers (a shared office workstation). */
export const KNOWN_DEVICE_ACCOUNTS = 8;

/**
 * Per-user quotas. Administrators are staff working the queue and are not counted; every other user is.
 * Additional recipients are a rule of the request form (domain/request-kinds.ts) and hold for everyone.
 */
export const QUOTAS = {
  /** drafts a user holds at once (submitted requests do not count) */
  openDrafts: 25,
  /** discussion messages a user sends in an hour */
  messagesPerHour: { max: 30, windowMs: HOUR },
  /** bytes a user uploads in 24 hours (documents of their requests) */
  uploadBytesPerDay: { max: 250 * 1024 * 1024, windowMs: DAY },
  /** addresses in a request's Additional Recipients */
  additionalRecipients: 10,
} as const;

/** The per-user quotas a portal runs with: QUOTAS unless the operator set others (config/app-config.ts). */
export interface UserQuotas {
  openDrafts: number;
  messagesPerHour: number;
  uploadBytesPerDay: number;
}

export const DEFAULT_USER_QUOTAS: UserQuotas = {
  openDrafts: QUOTAS.openDrafts,
  messagesPerHour: QUOTAS.messagesPerHour.max,
  uploadBytesPerDay: QUOTAS.uploadBytesPerDay.max,
};

/** An upload that no document took up within this time is removed (its bytes and its row). */
export const UNREFERENCED_UPLOAD_TTL_MS = DAY;

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** A per-user quota's refusal (HTTP 429), naming the limit the portal runs with. */
export const quotaMessage: Record<keyof UserQuotas, (limit: number) => string> = {
  openDrafts: (limit) => `You already have ${limit} unsubmitted drafts. Please submit or delete one of them before starting another request.`,
  messagesPerHour: (limit) => `You have sent ${limit} messages in the last hour. Please wait a little before sending another, or call Risk Management.`,
  uploadBytesPerDay: (limit) => `You have uploaded ${megabytes(limit)} in the last 24 hours, the most we accept in a day. Please try again tomorrow or contact Risk Management.`,
};

/** The other refusals' messages (HTTP 429, or 400 on the form field). */
export const QUOTA_MESSAGES = {
  additionalRecipients: `Please enter at most ${QUOTAS.additionalRecipients} additional recipients`,
  signInAccount: 'Too many sign-in attempts for this account. Please wait a few minutes and try again.',
  signInAddress: 'Too many failed sign-ins from your network. Please wait a few minutes and try again.',
  tooManyCalls: 'Too many attempts. Please wait a minute and try again.',
} as const;
