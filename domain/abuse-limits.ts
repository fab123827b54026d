/**
 * Abuse limits: how often a caller may try to sign in, and how much one user may create. The
 * spec names none of these; they are set well above what an honest user does in a day at the office, so that only
 * scripts meet them. Counted in PostgreSQL (services/limits/rate-limits.ts, services/limits/quotas.ts), so every API
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
 * The proof-of-work check a sign-in must carry (ALTCHA, PBKDF2/SHA-256), and how much work it asks for. A check is
 * asked for once the client address's failure window is full, or once an account has failed a few times from browsers
 * it does not know; its work doubles with each further step of failures, up to a cap. The work is PBKDF2 at a
 * thousand iterations a try, which a browser computes natively (WebCrypto) as fast as a script on the same CPU: so a
 * spray pays for each guess what an honest person pays once, and the portal pays one check (a single PBKDF2) and, if
 * the check holds, one argon2 verify. The levels' times in a browser are in docs/ACCOUNTS.md (measured with
 * `npm run bench:sign-in-check`). The failures past the address window are counted in their own window of an hour,
 * so a spray that waits for the 15-minute window to pass meets the level it reached, not the first one again.
 */
export const SIGN_IN_CHECK = {
  /** PBKDF2 iterations of one try */
  iterationsPerTry: 1000,
  /** the tries of a level-1 check: the solution is a counter drawn between half of this and this */
  level1Tries: 4096,
  /** the highest level: level n asks for 2^(n-1) times the tries of level 1 */
  maxLevel: 6,
  /** failures past the full address window that raise the level by one */
  addressFailuresPerLevel: 25,
  /** where the failures past the full address window are counted */
  addressOverWindow: { windowMs: HOUR },
  /** failures on one account (from browsers it does not know, in its window) before it asks for a check */
  accountFreeFailures: 5,
  /** further failures on the account that raise the level by one */
  accountFailuresPerLevel: 5,
} as const;

/** What the level depends on: the address window full or not, the failures past it, the account's failures. */
export interface SignInCheckFacts {
  addressWindowFull: boolean;
  /** failures from the address past its full window (SIGN_IN_CHECK.addressOverWindow) */
  addressFailuresPastWindow: number;
  /** failures on the account in its window (SIGN_IN_LIMITS.account), from browsers it does not know */
  accountFailures: number;
}

/** The check a sign-in must carry: 0 for none, else 1 … SIGN_IN_CHECK.maxLevel (the higher of address and account). */
export function signInCheckLevel(facts: SignInCheckFacts): number {
  const c = SIGN_IN_CHECK;
  const address = facts.addressWindowFull ? 1 + Math.floor(Math.max(0, facts.addressFailuresPastWindow) / c.addressFailuresPerLevel) : 0;
  const account = facts.accountFailures >= c.accountFreeFailures
    ? 1 + Math.floor((facts.accountFailures - c.accountFreeFailures) / c.accountFailuresPerLevel) : 0;
  return Math.min(c.maxLevel, Math.max(address, account));
}

/** The most tries a check of `level` asks for (its counter is drawn from the upper half of 1 … this). */
export const signInCheckTries = (level: number): number =>
  SIGN_IN_CHECK.level1Tries * 2 ** (Math.min(Math.max(level, 1), SIGN_IN_CHECK.maxLevel) - 1);

/**
 * Re-authentication with a stored token (`strategy: 'jwt'`, every page change and page load) is not limited for a
 * token the portal signed: checking one costs the single statement every signed-in call costs, and a limit there only
 * ever met people working a queue. What a limit guards against is guessing: tokens that are not ours (a bad signature,
 * garbage) are counted per client address, and past this window such a token is answered 429 instead of 401. Our own
 * tokens, valid or expired, are never counted and never refused for load, so a script on a hospital's shared address
 * cannot sign its colleagues out.
 */
export const FORGED_TOKENS_PER_ADDRESS: WindowLimit = { max: 20, windowMs: MINUTE };

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
  checkRequiredForAccount: 'Several sign-ins to this account failed recently. Please solve the check below, then select Log In again.',
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
  /**
   * uploads of one user in progress at once: the portal's form sends one file at a time, so two leave room for a
   * second tab while a script cannot hold many disk streams and reservations open
   */
  uploadsAtOnce: 2,
  /** addresses in a request's Additional Recipients */
  additionalRecipients: 10,
} as const;

/** The per-user quotas a portal runs with: QUOTAS unless the operator set others (config/app-config.ts). */
export interface UserQuotas {
  openDrafts: number;
  messagesPerHour: number;
  uploadBytesPerDay: number;
  uploadsAtOnce: number;
}

export const DEFAULT_USER_QUOTAS: UserQuotas = {
  openDrafts: QUOTAS.openDrafts,
  messagesPerHour: QUOTAS.messagesPerHour.max,
  uploadBytesPerDay: QUOTAS.uploadBytesPerDay.max,
  uploadsAtOnce: QUOTAS.uploadsAtOnce,
};

/**
 * How long a file may take to arrive: 10 MB in 5 minutes is a slow line's pace (about 270 kbit/s). A slower upload is
 * cut off (408), so that it never outlives its place below.
 */
export const UPLOAD_RECEIVE_MS = 5 * MINUTE;
/**
 * How long an upload in progress holds its place (and its reserved bytes) at most: twice the time a file may take to
 * arrive, so a live upload always finishes (or is cut off) first; a process that dies mid-upload frees the place when
 * it runs out.
 */
export const UPLOAD_SLOT_TTL_MS = 2 * UPLOAD_RECEIVE_MS;
/** Retry-After of the "uploads at once" refusal: a document of a few MB takes seconds to send. */
export const UPLOADS_AT_ONCE_RETRY_AFTER_S = 10;

/** An upload that no document took up within this time is removed (its bytes and its row). */
export const UNREFERENCED_UPLOAD_TTL_MS = DAY;

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** A per-user quota's refusal (HTTP 429), naming the limit the portal runs with. */
export const quotaMessage: Record<keyof UserQuotas, (limit: number) => string> = {
  openDrafts: (limit) => `You already have ${limit} unsubmitted drafts. Please submit or delete one of them before starting another request.`,
  messagesPerHour: (limit) => `You have sent ${limit} messages in the last hour. Please wait a little before sending another, or call Risk Management.`,
  uploadBytesPerDay: (limit) => `You have uploaded ${megabytes(limit)} in the last 24 hours, the most we accept in a day. Please try again tomorrow or contact Risk Management.`,
  uploadsAtOnce: (limit) => `You are already uploading ${limit} file${limit === 1 ? '' : 's'}. Please wait until ${limit === 1 ? 'it has' : 'they have'} finished, then try again.`,
};

/** The other refusals' messages (HTTP 429, or 400 on the form field). */
export const QUOTA_MESSAGES = {
  additionalRecipients: `Please enter at most ${QUOTAS.additionalRecipients} additional recipients`,
  signInAccount: 'Too many sign-in attempts for this account. Please wait a few minutes and try again.',
  tooManyCalls: 'Too many attempts. Please wait a minute and try again.',
  uploadTooSlow: 'The file took too long to arrive, so it was not kept. Please try again, or contact Risk Management if your connection is slow.',
} as const;

// ---- Emails to addresses a user chooses ------------------------------------------------------------------------

/**
 * Every email a user can aim at an address of their choosing: confirmation links (registration, an email change,
 * "send the link again"), the change notice to the address in force, and a request's Recipient and Additional
 * Recipients on its first submit. Without a bound the portal would be a relay of Risk Management's good name.
 * Counted per user (all addresses) and per target address (all users), in PostgreSQL (services/limits/chosen-address-mail.ts),
 * in fixed daily windows; administrators are staff and not counted. An honest user changes their address a few
 * times a year and copies a handful of colleagues on a request; these numbers leave them ten times that.
 */
export const CHOSEN_ADDRESS_MAIL_LIMITS = {
  /** account emails (links, change notices, the address-in-use notice): one email change costs two */
  account: { perUser: { max: 12, windowMs: DAY }, perAddress: { max: 8, windowMs: DAY } },
  /** a request's Recipient and Additional Recipients, counted when it is first submitted */
  requestRecipients: { perUser: { max: 150, windowMs: DAY }, perAddress: { max: 50, windowMs: DAY } },
} as const satisfies Record<string, { perUser: WindowLimit; perAddress: WindowLimit }>;

export type ChosenAddressMail = keyof typeof CHOSEN_ADDRESS_MAIL_LIMITS;

/**
 * Wrong current passwords given with a password change or an email change, per user, in one window for both: a
 * stolen session cannot guess the password there (services/accounts/current-password.ts).
 */
export const CURRENT_PASSWORD_FAILURES: WindowLimit = { max: 10, windowMs: 15 * MINUTE };

const waitText = (seconds: number) => (seconds > 5400 ? `about ${Math.round(seconds / 3600)} hours` : `about ${Math.max(1, Math.round(seconds / 60))} minutes`);

/** The refusal (HTTP 429, with Retry-After) when a user or an address has had its emails for the day. */
export function chosenAddressMailMessage(scope: 'perUser' | 'perAddress', retryAfterSeconds: number): string {
  return scope === 'perUser'
    ? `You have reached the number of emails the portal sends for one account in a day. Nothing was sent. Please try again in ${waitText(retryAfterSeconds)}, or call Risk Management.`
    : `An address you entered has received as many emails from the portal as we send to one address in a day. Nothing was sent. Please try again in ${waitText(retryAfterSeconds)}, or call Risk Management.`;
}

export const CURRENT_PASSWORD_TOO_MANY = 'Too many wrong current passwords. Please wait a few minutes and try again.';

// ---- The public verification page ------------------------------------------------------------------------------

/**
 * Checks of a verification code or a dropped PDF from one client address (no sign-in there). A holder checks one
 * certificate, a venue's desk a few dozen in a busy hour; at this pace a script needs millennia to hit one of the
 * 2^65 codes, and a flood of PDFs (hashed, up to the upload limit each) cannot take a process's CPU. Counted in
 * PostgreSQL (services/limits/rate-limits.ts): the code and the PDF checks share one window, in every API process.
 */
export const VERIFICATION_LIMIT: WindowLimit = { max: 60, windowMs: MINUTE };
export const VERIFICATION_TOO_MANY = 'Too many checks from your network. Please wait a minute and try again.';
