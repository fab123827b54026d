/**
 * API keys: how an organisation's own systems (credentialing software) call the portal for it. A key belongs to one
 * external account — the organisation's registered account is the organisation here: the portal has no organisation
 * record above its accounts, so whoever holds the account's password manages its keys. A key acts as that account,
 * with the scopes it was given and nothing more: never an administrator's rights, never another account's requests.
 */

export const API_KEY_SCOPES = {
  'requests:read': 'Read this account\'s requests',
  'requests:write': 'Create, fill in and submit requests',
  'letters:read': 'List and download this account\'s letters and documents',
} as const;

export type ApiKeyScope = keyof typeof API_KEY_SCOPES;
export const API_KEY_SCOPE_NAMES = Object.keys(API_KEY_SCOPES) as ApiKeyScope[];

/**
 * The secret's shape: `coi_<prefix>_<secret>`. The prefix (8 base32 characters, 40 bits) names the key in lists and
 * in the log and finds its row; the secret is 32 random bytes (256 bits) in base64url. Only the SHA-256 of the
 * whole key is stored. A slow password hash (argon2) exists to make guessing a low-entropy password expensive; a
 * 256-bit random secret cannot be guessed whatever the hash costs, so one fast SHA-256 is as safe and keeps every
 * call with a key cheap.
 */
export const API_KEY_PREFIX = 'coi_';
export const API_KEY_PATTERN = /^coi_([a-z2-7]{8})_([A-Za-z0-9_-]{43})$/;

/** Looks like one of our keys (a bearer token that is not a session token). */
export const looksLikeApiKey = (token: string): boolean => token.startsWith(API_KEY_PREFIX);

/** The longest name a key may have, and the most live keys one account holds. */
export const API_KEY_NAME_MAX = 80;
export const API_KEYS_PER_ACCOUNT = 20;

/** A fixed window: at most `max` calls per `windowMs`. */
export interface ApiKeyWindow { max: number; windowMs: number }

/**
 * Calls one key may make: 120 a minute is two a second, far more than a credentialing office's software needs to
 * file and follow its requests, and a runaway script meets it long before it weighs on the portal.
 */
export const API_KEY_CALLS: ApiKeyWindow = { max: 120, windowMs: 60_000 };

/**
 * Beside the minute, a window of 2 s holding a key to its minute's pace (120 a minute: 4 in 2 s): without it every key
 * may spend its whole minute in its first seconds, and twenty keys doing so at once slowed everyone's pages fourfold.
 */
export const API_KEY_BURST_WINDOW_MS = 2_000;
export const apiKeyBurstOf = (callsPerMinute: number): ApiKeyWindow =>
  ({ max: Math.max(1, Math.ceil((callsPerMinute * API_KEY_BURST_WINDOW_MS) / 60_000)), windowMs: API_KEY_BURST_WINDOW_MS });

/**
 * How often a key's use is written down: its `last_used_at` and a "key used" line in the security log, at most once
 * per key per this interval, so a busy key neither floods the log nor writes a row on every call.
 */
export const API_KEY_USE_RECORD_MS = 60_000;

export const API_KEY_MESSAGES = {
  invalid: 'This API key is not valid.',
  revoked: 'This API key has been revoked.',
  scope: 'This API key may not make this call.',
  tooMany: (seconds: number) => `This API key has made too many calls. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`,
  externalOnly: 'Only a registered organisation account may hold API keys.',
  unconfirmed: 'Please confirm your email address before creating API keys.',
  tooManyKeys: `An account may hold at most ${API_KEYS_PER_ACCOUNT} active API keys. Please revoke one you no longer use.`,
  notFound: 'API key not found',
} as const;

/** Why a call with a key was refused, as the security log records it. */
export type ApiKeyRefusal = 'invalid' | 'revoked' | 'scope' | 'overLimit' | 'owner';
