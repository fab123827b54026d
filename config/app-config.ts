/**
 * Every setting, read once from the environment with embedded development defaults.
 * Imported by the API, the worker and the scripts; never by workflows/ or ui/.
 * With NODE_ENV=production the development defaults that would be unsafe are refused: loadConfig throws when
 * JWT_SECRET is missing, shorter than 32 characters or a value committed to this repository, when
 * SEED_DEV_ACCOUNTS=true asks for the development accounts, and when an office fact people read has no value of its
 * own (PRODUCTION_REQUIRED_SETTINGS: the samples below are never shown to a real requester).
 */
import { loadWebhookSettings, type WebhookSettings } from './webhook-config';
import { loadRenewalSettings, type RenewalSettings } from './renewal-config';
import { loadInboundMailSettings, type InboundMailSettings } from './inbound-mail-config';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { DEFAULT_USER_QUOTAS, type UserQuotas } from '../domain/abuse-limits';
import { DEFAULT_CLOCK_POLICY, type ClockPolicy } from '../domain/request-clocks';
import { API_KEY_CALLS, apiKeyBurstOf } from '../domain/api-keys';
import { cleanEmailDomains } from '../domain/university-addresses';
import { MAX_LOCAL_PART_LENGTH } from '../domain/reply-address';
import { createHmac } from 'node:crypto';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The Chromium that prints letters: Debian's `chromium-headless-shell` (the headless-only build), about half the CPU
 * and two thirds of the time of the full browser per letter, a third of its start (bench/README.md).
 */
export const LETTER_CHROMIUM_PATH = '/usr/lib/chromium/chromium-headless-shell';

/** The JWT secret used when JWT_SECRET is not set outside production. */
export const DEVELOPMENT_JWT_SECRET = 'development-only-secret-change-me-in-production-0123456789';
/** Secrets that were ever committed here (this file, docker-compose.yml): never acceptable in production. */
const COMMITTED_JWT_SECRETS = new Set([
  DEVELOPMENT_JWT_SECRET,
  'change-me-in-production-0123456789abcdef0123456789abcdef',
]);
const MIN_PRODUCTION_JWT_SECRET_LENGTH = 32;
/** A development sample in the office's format; production requires RISK_MANAGEMENT_PHONE. */
export const DEFAULT_RISK_MANAGEMENT_PHONE = '503-494-0000';
/** A development sample mailbox; production requires RISK_MANAGEMENT_EMAIL. */
export const DEFAULT_RISK_MANAGEMENT_EMAIL = 'riskmanagement@coi-portal.local';

/** The domain of the seeded directory's people (db/seed-data.ts): the university's, outside production. */
const DEVELOPMENT_UNIVERSITY_DOMAIN = 'ohsu.example';

/** Thrown by loadConfig for a setting the process must not start with. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface AppConfig {
  rootDir: string;
  dataDir: string;
  uploadsDir: string;
  databaseUrl: string;
  temporalAddress: string;
  temporalNamespace: string;
  taskQueue: string;
  temporalUiUrl: string;
  smtpUrl: string | null;
  /** the sender of every email: MAIL_FROM, default "Risk Management <RISK_MANAGEMENT_EMAIL>" */
  mailFrom: string;
  /** the risk-management office's mailbox: requesters' discussion messages go there (domain/email-recipients.ts) */
  riskManagementEmail: string;
  /** the risk-management office's phone number, shown in help lines and reset-password messages (spec 1 §1) */
  riskManagementPhone: string;
  outboxPort: number;
  chromiumPath: string;
  apiHost: string;
  apiPort: number;
  publicUrl: string;
  jwtSecret: string;
  uploadMaxBytes: number;
  /**
   * Which proxies' X-Forwarded-For the API believes (Fastify `trustProxy`), so that limits and the security log see
   * the client's address behind the university's proxy: false (default: the socket's address), true (any), a number
   * of hops, or addresses/CIDRs. TRUST_PROXY=false|true|<hops>|<ip or cidr, ...>.
   */
  trustProxy: boolean | number | string[];
  /**
   * Per-user quotas (domain/abuse-limits.ts has the defaults and why): OPEN_DRAFTS_QUOTA, MESSAGES_PER_HOUR_QUOTA,
   * UPLOAD_MB_PER_DAY_QUOTA. Administrators are never counted. UPLOADS_AT_ONCE (uploads of one user in progress at
   * once) holds for everyone: it bounds open streams, not how much anyone uses.
   */
  quotas: UserQuotas;
  /** Calls one API key may make a minute (domain/api-keys.ts API_KEY_CALLS has the default and why): API_KEY_CALLS_PER_MINUTE. */
  apiKeyCallsPerMinute: number;
  /** Calls one API key may make in 2 s (default: the minute's pace, domain/api-keys.ts apiKeyBurstOf): API_KEY_CALLS_PER_2_SECONDS. */
  apiKeyCallsPer2Seconds: number;
  /** Prebuilt workflow bundle (production image); when absent the worker bundles workflows at start-up. */
  workflowBundlePath: string | null;
  /** How long the API waits for the workflow to take a status change before answering 503 (try again). */
  workflowAnswerTimeoutMs: number;
  /** Live event streams (GET /events): heartbeat interval, at which each stream also re-checks its session. */
  eventsHeartbeatMs: number;
  /**
   * Prometheus metrics (`GET /metrics`) on a port of their own, on 127.0.0.1 unless METRICS_HOST says otherwise, so
   * they never face users: METRICS_PORT; unset or 0, no metrics server.
   */
  metrics: { host: string; port: number };
  /** NODE_ENV=production. */
  production: boolean;
  /** The office facts still at their development sample (never in production: loadConfig refuses to start). */
  officeSamples: OfficeSetting[];
  /**
   * The least level the API and the worker log, as JSON lines with the command's `reqId` (worker/worker-logging.ts):
   * LOG_LEVEL (trace, debug, info, warn, error); default info in production (a line per call and per activity),
   * warn in development (a terminal shared with npm start's own messages).
   */
  logLevel: LogLevelSetting;
  /** The request clocks (reminders, escalation, auto-close, release expiry, business calendar): domain/request-clocks.ts. */
  clockPolicy: ClockPolicy;
  /**
   * How long emails and letters retry transient failures before failing visibly (worker/retry-window.ts):
   * EFFECT_RETRY_WINDOW_HOURS, default 72.
   */
  effectRetryWindowMs: number;
  /**
   * Workflows a worker keeps in memory at most (older ones are replayed from history when they wake). 250 by default:
   * each costs the worker 0.8–1.7 MiB of RSS, and a miss only a replay of its history (bench/README.md).
   */
  maxCachedWorkflows: number;
  /**
   * Whether database preparation seeds the development accounts (db/seed-data.ts DEV_ADMIN, DEV_REQUESTER): never in
   * production; elsewhere unless SEED_DEV_ACCOUNTS=false.
   */
  seedDevAccounts: boolean;
  /** University single sign-on (SAML); see SamlSettings. */
  saml: SamlSettings;
  /**
   * The university's own email domains (subdomains included), which registered accounts may not use: their owners
   * sign in through single sign-on (domain/university-addresses.ts). UNIVERSITY_EMAIL_DOMAINS, comma-separated;
   * outside production the seeded directory's `ohsu.example` by default.
   */
  universityEmailDomains: string[];
  /** Answers by email, inbound: the SMTP listener, the mailbox poller, the size limit (config/inbound-mail-config.ts). */
  inboundMail: InboundMailSettings;
  /** webhook deliveries: address rules, retries, when a failing endpoint is disabled (config/webhook-config.ts) */
  webhooks: WebhookSettings;
  /** renewal runs: their pace and backpressure (config/renewal-config.ts) */
  renewals: RenewalSettings;
  /** Answering by email: see ReplySettings. */
  reply: ReplySettings;
  /** The office's digital signature on every issued PDF; see LetterSigningSettings. */
  letterSigning: LetterSigningSettings;
}

/**
 * Answering a request's email by email (domain/reply-address.ts, services/reply-token.ts). Emails that invite an answer
 * carry `Reply-To: <local>+<token>@<domain>`; the university's MTA forwards that domain (or the mailbox polled) to the
 * portal's inbound side.
 */
interface ReplySettings {
  /** REPLY_TO_LOCAL: the local part before `+<token>`; default `reply`. */
  local: string;
  /**
   * REPLY_TO_DOMAIN: the domain of reply addresses. Outside production `coi-portal.local` by default (the development
   * inbound listener accepts it); in production unset means no email carries a Reply-To (answers go to MAIL_FROM).
   */
  domain: string | null;
  /**
   * The key that signs reply tokens: REPLY_TOKEN_SECRET (at least 32 characters in production), else derived from
   * JWT_SECRET with a label of its own. Changing it revokes every reply address sent before.
   */
  tokenKey: string;
  /** REPLY_TOKEN_MAX_AGE_DAYS: a reply address older than this is refused (the sender is asked to use a newer email); default 365. */
  tokenMaxAgeDays: number;
  /** The right-hand side of every Message-ID and thread id the portal writes: the domain of MAIL_FROM's address. */
  messageIdDomain: string;
}

/**
 * The office's signing certificate (a PKCS#12 file with its RSA key) that signs every issued letter and certificate
 * (activities/pdf/letter-signer.ts): LETTER_SIGNING_P12 (the file's bytes in base64: `base64 -w0 office.p12`) and
 * LETTER_SIGNING_P12_PASSWORD. LETTER_SIGNING=off issues unsigned PDFs (on by default). With NODE_ENV=production and
 * signing on, the worker (the one process that holds the key and signs) refuses to start without both; elsewhere a
 * self-signed development certificate is made at first start under `<DATA_DIR>/letter-signing/`.
 */
interface LetterSigningSettings {
  enabled: boolean;
  p12: Buffer | null;
  p12Password: string | null;
  /** where development keeps its generated certificate */
  developmentDir: string;
}

/** What production needs to sign letters, and what each is for (the worker's refusal names the missing ones). */
const LETTER_SIGNING_SETTINGS = {
  LETTER_SIGNING_P12: "the office's signing certificate and key (PKCS#12), base64: every issued PDF is signed with it",
  LETTER_SIGNING_P12_PASSWORD: 'the password of that PKCS#12 file',
} as const;

function letterSigningSettings(env: NodeJS.ProcessEnv, dataDir: string): LetterSigningSettings {
  const raw = env.LETTER_SIGNING?.trim().toLowerCase() || 'on';
  if (raw !== 'on' && raw !== 'off') throw new ConfigError(`LETTER_SIGNING must be on or off (got "${env.LETTER_SIGNING}")`);
  const p12 = env.LETTER_SIGNING_P12?.replace(/\s+/g, '') || '';
  if (p12 && !/^[A-Za-z0-9+/]+={0,2}$/.test(p12)) throw new ConfigError('LETTER_SIGNING_P12 must be the PKCS#12 file in base64 (base64 -w0 office.p12)');
  return {
    enabled: raw === 'on',
    p12: p12 ? Buffer.from(p12, 'base64') : null,
    p12Password: env.LETTER_SIGNING_P12_PASSWORD ?? null,
    developmentDir: path.join(dataDir, 'letter-signing'),
  };
}

/**
 * With NODE_ENV=production and signing on, refuses to start without the office's certificate and its password,
 * naming each missing setting (in the manner of PRODUCTION_REQUIRED_SETTINGS). Called by the worker at start.
 */
export function refuseUnsignedLettersInProduction(config: Pick<AppConfig, 'production' | 'letterSigning'>): void {
  if (!config.production || !config.letterSigning.enabled) return;
  const missing = (Object.keys(LETTER_SIGNING_SETTINGS) as Array<keyof typeof LETTER_SIGNING_SETTINGS>).filter((name) =>
    name === 'LETTER_SIGNING_P12' ? !config.letterSigning.p12?.length : config.letterSigning.p12Password === null);
  if (!missing.length) return;
  throw new ConfigError(`With NODE_ENV=production the worker does not start without the office's signing certificate: ${missing.join(', ')}.\n`
    + missing.map((name) => `  ${name} is not set: ${LETTER_SIGNING_SETTINGS[name]}`).join('\n')
    + '\n(docs/OPERATIONS.md "Signing certificate" says how to install it; LETTER_SIGNING=off issues unsigned PDFs.)');
}

/**
 * The identity provider the API trusts and how the API names itself to it. Either `idpMetadataUrl` (the IdP's
 * metadata: signing certificates, entity id, redirect entry point; re-read hourly) or `idpEntryPoint` + `idpCert`.
 * None of them: single sign-on answers "not configured". `npm start` points the API at its development IdP.
 */
export interface SamlSettings {
  idpMetadataUrl: string | null;
  idpEntryPoint: string | null;
  /** PEM certificate(s) of the IdP's signing key (several for a rollover), or a file holding them. */
  idpCert: string | null;
  /**
   * The IdP's entity id: assertions from another issuer are refused. Required with NODE_ENV=production; elsewhere
   * taken from the metadata when unset (metadata naming another entity is refused).
   */
  idpEntityId: string | null;
  /** Our entity id (the audience assertions must name); default `<PUBLIC_URL>/saml/<product>/metadata`. */
  spEntityId: string | null;
}

const optional = (value: string | undefined) => (value?.trim() ? value.trim() : null);

function samlSettings(env: NodeJS.ProcessEnv = process.env): SamlSettings {
  const settings = {
    idpMetadataUrl: optional(env.SAML_IDP_METADATA_URL),
    idpEntryPoint: optional(env.SAML_IDP_ENTRY_POINT),
    idpCert: optional(env.SAML_IDP_CERT),
    idpEntityId: optional(env.SAML_IDP_ENTITY_ID),
    spEntityId: optional(env.SAML_SP_ENTITY_ID),
  };
  if (!settings.idpMetadataUrl && Boolean(settings.idpEntryPoint) !== Boolean(settings.idpCert)) {
    throw new ConfigError('Single sign-on needs SAML_IDP_METADATA_URL, or both SAML_IDP_ENTRY_POINT and SAML_IDP_CERT.');
  }
  if (env.NODE_ENV === 'production') productionSamlSettings(settings);
  return settings;
}

/**
 * Single sign-on is the only way to administrator rights in production (domain/administrator-rights.ts): whoever can
 * swap the IdP's certificates, or get an assertion of another issuer accepted, makes administrators. So with
 * NODE_ENV=production the metadata (which carries the certificates) is read over https only, and the IdP's entity id
 * is given, so every assertion's issuer is checked against it. Development and the tests run a local stand-in IdP
 * over http (devtools/dev-idp) and take its entity id from its metadata.
 */
function productionSamlSettings(settings: SamlSettings): void {
  const { idpMetadataUrl, idpEntryPoint, idpEntityId } = settings;
  if (idpMetadataUrl) {
    let protocol: string;
    try {
      protocol = new URL(idpMetadataUrl).protocol;
    } catch {
      throw new ConfigError(`SAML_IDP_METADATA_URL is not an address (got "${idpMetadataUrl}").`);
    }
    if (protocol !== 'https:') {
      throw new ConfigError(`SAML_IDP_METADATA_URL must be an https: address with NODE_ENV=production (got "${idpMetadataUrl}"): `
        + 'metadata read over plain http can be swapped on the way, and with it the certificates that vouch for administrators. '
        + 'Give the IdP\'s https metadata address, or pin the IdP instead with SAML_IDP_ENTRY_POINT, SAML_IDP_CERT and SAML_IDP_ENTITY_ID.');
    }
  }
  if ((idpMetadataUrl || idpEntryPoint) && !idpEntityId) {
    throw new ConfigError('SAML_IDP_ENTITY_ID is not set: with NODE_ENV=production single sign-on does not start without the IdP\'s entity id, '
      + 'the issuer every assertion must name (assertions of any other issuer are refused). It is the entityID of the IdP\'s metadata.');
  }
}

function productionJwtSecret(value: string | undefined): string {
  const hint = 'Generate one with  openssl rand -base64 48  and pass it as JWT_SECRET.';
  if (!value) throw new ConfigError(`JWT_SECRET is not set: with NODE_ENV=production the server refuses to start without its own secret. ${hint}`);
  if (COMMITTED_JWT_SECRETS.has(value)) throw new ConfigError(`JWT_SECRET is a development value committed to the repository: with NODE_ENV=production set a secret of your own. ${hint}`);
  if (value.length < MIN_PRODUCTION_JWT_SECRET_LENGTH) {
    throw new ConfigError(`JWT_SECRET is ${value.length} characters long: with NODE_ENV=production it must have at least ${MIN_PRODUCTION_JWT_SECRET_LENGTH}. ${hint}`);
  }
  return value;
}

/** Reads SEED_DEV_ACCOUNTS under the NODE_ENV rule (see AppConfig.seedDevAccounts); throws for `true` in production. */
export function seedDevAccountsSetting(env: NodeJS.ProcessEnv = process.env): boolean {
  const raw = env.SEED_DEV_ACCOUNTS?.trim().toLowerCase();
  if (raw !== undefined && raw !== '' && !['true', 'false', '1', '0'].includes(raw)) {
    throw new ConfigError(`SEED_DEV_ACCOUNTS must be true or false (got "${env.SEED_DEV_ACCOUNTS}")`);
  }
  const asked = raw === 'true' || raw === '1' ? true : raw === 'false' || raw === '0' ? false : null;
  if (env.NODE_ENV === 'production') {
    if (asked) throw new ConfigError('SEED_DEV_ACCOUNTS=true is refused with NODE_ENV=production: the development accounts have published passwords.');
    return false;
  }
  return asked ?? true;
}

/**
 * The migrate step's connection (scripts/migrate.ts). In the production shape the API and the worker connect as a
 * runtime role (DATABASE_URL) that cannot change tables, and MIGRATION_DATABASE_URL names the owner of the database,
 * which migrates and then grants the runtime role (DATABASE_URL's user) its privileges. Unset: one role does both
 * (`npm start`, the tests). Only the migrate service receives it: the owner's password never reaches the API.
 */
export function migrationDatabaseSetting(env: NodeJS.ProcessEnv = process.env): { ownerUrl: string; runtimeRole: string | null } {
  const runtimeUrl = env.DATABASE_URL ?? defaultDatabaseUrl(env);
  const ownerUrl = env.MIGRATION_DATABASE_URL?.trim() || runtimeUrl;
  const user = (url: string) => decodeURIComponent(new URL(url).username);
  return { ownerUrl, runtimeRole: user(ownerUrl) === user(runtimeUrl) ? null : user(runtimeUrl) };
}

/**
 * The database when DATABASE_URL is unset: trusted local connections on 127.0.0.1, where `npm start` and `npm test`
 * start an embedded PostgreSQL if nothing answers (devtools/postgres/embedded-postgres.ts). libpq's PGPORT moves it.
 */
export const defaultDatabaseUrl = (env: NodeJS.ProcessEnv = process.env, database = 'coi_portal') =>
  `postgres://postgres@127.0.0.1:${env.PGPORT || 5432}/${database}`;

/**
 * What people read or follow that only the office can say: each prints in help lines, password messages, email links
 * or mail headers, so production never falls back to a sample for it. The order is the order of the refusal message.
 */
export const PRODUCTION_REQUIRED_SETTINGS = {
  JWT_SECRET: 'the secret that signs sessions (openssl rand -base64 48)',
  PUBLIC_URL: 'the https address people use: every link in an email and the single sign-on addresses start with it',
  RISK_MANAGEMENT_PHONE: 'the office\'s phone number, shown in the request forms\' help line and in password messages',
  RISK_MANAGEMENT_EMAIL: 'the office\'s mailbox: requesters\' messages and resubmissions go there, and emails are sent from it',
} as const;
type RequiredSetting = keyof typeof PRODUCTION_REQUIRED_SETTINGS;
/** The required settings development runs with a sample of. */
type OfficeSetting = Exclude<RequiredSetting, 'JWT_SECRET'>;

/**
 * The office settings development runs with a sample of, and that sample: typed in as a value (copied from a
 * development .env, say) it is still no office's, so production refuses it as it refuses the setting unset.
 */
const OFFICE_SAMPLE_VALUES: Partial<Record<OfficeSetting, { sample: string; same: (value: string) => boolean }>> = {
  RISK_MANAGEMENT_PHONE: {
    sample: DEFAULT_RISK_MANAGEMENT_PHONE,
    // The same number however it is written: 503-494-0000, (503) 494-0000, +1 503 494 0000.
    same: (value) => value.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '') === DEFAULT_RISK_MANAGEMENT_PHONE.replace(/\D/g, ''),
  },
  RISK_MANAGEMENT_EMAIL: { sample: DEFAULT_RISK_MANAGEMENT_EMAIL, same: (value) => value.toLowerCase() === DEFAULT_RISK_MANAGEMENT_EMAIL },
};

/** True when the setting is unset or holds the development sample. */
function isOfficeSample(name: OfficeSetting, env: NodeJS.ProcessEnv): boolean {
  const value = env[name]?.trim();
  return !value || !!OFFICE_SAMPLE_VALUES[name]?.same(value);
}

/**
 * With NODE_ENV=production, refuses to start while any required setting is unset or holds the development sample,
 * naming every one in one message.
 */
function refuseMissingProductionSettings(env: NodeJS.ProcessEnv): void {
  if (env.NODE_ENV !== 'production') return;
  const problems = (Object.keys(PRODUCTION_REQUIRED_SETTINGS) as RequiredSetting[]).flatMap((name) => {
    if (!env[name]?.trim()) return [{ name, problem: 'is not set' }];
    const sample = name === 'JWT_SECRET' ? undefined : OFFICE_SAMPLE_VALUES[name];
    return sample?.same(env[name]!.trim()) ? [{ name, problem: `is the development sample ${sample.sample}, not the office's own` }] : [];
  });
  if (!problems.length) return;
  throw new ConfigError(`With NODE_ENV=production the portal does not start without values of its own for these settings: ${problems.map((p) => p.name).join(', ')}.\n`
    + problems.map(({ name, problem }) => `  ${name} ${problem}: ${PRODUCTION_REQUIRED_SETTINGS[name]}`).join('\n')
    + '\n(docs/OPERATIONS.md "First day" lists them; development keeps its samples.)');
}

/** The office settings that are unset or hold their development sample (outside production only). */
const officeSamplesOf = (env: NodeJS.ProcessEnv): OfficeSetting[] =>
  (['PUBLIC_URL', 'RISK_MANAGEMENT_PHONE', 'RISK_MANAGEMENT_EMAIL'] as const).filter((name) => isOfficeSample(name, env));

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  refuseMissingProductionSettings(env);
  const dataDir = path.resolve(env.DATA_DIR ?? path.join(root, 'data'));
  const apiPort = Number(env.PORT ?? 3030);
  const apiHost = env.HOST ?? '127.0.0.1';
  const production = env.NODE_ENV === 'production';
  return {
    rootDir: root,
    dataDir,
    uploadsDir: path.join(dataDir, 'uploads'),
    databaseUrl: env.DATABASE_URL ?? defaultDatabaseUrl(env),
    temporalAddress: env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233',
    temporalNamespace: env.TEMPORAL_NAMESPACE ?? 'default',
    taskQueue: env.TEMPORAL_TASK_QUEUE ?? 'coi-requests',
    temporalUiUrl: env.TEMPORAL_UI_URL ?? 'http://127.0.0.1:8233',
    smtpUrl: env.SMTP_URL ?? null,
    mailFrom: env.MAIL_FROM?.trim() || `Risk Management <${env.RISK_MANAGEMENT_EMAIL?.trim() || DEFAULT_RISK_MANAGEMENT_EMAIL}>`,
    riskManagementEmail: env.RISK_MANAGEMENT_EMAIL?.trim() || DEFAULT_RISK_MANAGEMENT_EMAIL,
    riskManagementPhone: env.RISK_MANAGEMENT_PHONE?.trim() || DEFAULT_RISK_MANAGEMENT_PHONE,
    outboxPort: Number(env.OUTBOX_PORT ?? 8025),
    chromiumPath: env.CHROMIUM_PATH ?? LETTER_CHROMIUM_PATH,
    apiHost,
    apiPort,
    publicUrl: env.PUBLIC_URL?.trim() || `http://${apiHost}:${apiPort}`,
    jwtSecret: production ? productionJwtSecret(env.JWT_SECRET) : env.JWT_SECRET || DEVELOPMENT_JWT_SECRET,
    uploadMaxBytes: Number(env.UPLOAD_MAX_BYTES ?? 10 * 1024 * 1024),
    trustProxy: production ? productionTrustProxySetting(env.TRUST_PROXY) : trustProxySetting(env.TRUST_PROXY),
    quotas: {
      openDrafts: positiveSetting('OPEN_DRAFTS_QUOTA', env.OPEN_DRAFTS_QUOTA, DEFAULT_USER_QUOTAS.openDrafts),
      messagesPerHour: positiveSetting('MESSAGES_PER_HOUR_QUOTA', env.MESSAGES_PER_HOUR_QUOTA, DEFAULT_USER_QUOTAS.messagesPerHour),
      uploadBytesPerDay: positiveSetting('UPLOAD_MB_PER_DAY_QUOTA', env.UPLOAD_MB_PER_DAY_QUOTA, DEFAULT_USER_QUOTAS.uploadBytesPerDay / MEGABYTE) * MEGABYTE,
      uploadsAtOnce: positiveSetting('UPLOADS_AT_ONCE', env.UPLOADS_AT_ONCE, DEFAULT_USER_QUOTAS.uploadsAtOnce),
    },
    apiKeyCallsPerMinute: positiveSetting('API_KEY_CALLS_PER_MINUTE', env.API_KEY_CALLS_PER_MINUTE, API_KEY_CALLS.max),
    apiKeyCallsPer2Seconds: positiveSetting('API_KEY_CALLS_PER_2_SECONDS', env.API_KEY_CALLS_PER_2_SECONDS,
      apiKeyBurstOf(positiveSetting('API_KEY_CALLS_PER_MINUTE', env.API_KEY_CALLS_PER_MINUTE, API_KEY_CALLS.max)).max),
    workflowBundlePath: env.WORKFLOW_BUNDLE_PATH ?? null,
    workflowAnswerTimeoutMs: Number(env.WORKFLOW_ANSWER_TIMEOUT_MS ?? 30_000),
    eventsHeartbeatMs: Number(env.EVENTS_HEARTBEAT_MS ?? 15_000),
    metrics: { host: env.METRICS_HOST ?? '127.0.0.1', port: Number(env.METRICS_PORT ?? 0) },
    production,
    officeSamples: officeSamplesOf(env),
    logLevel: logLevelSetting(env.LOG_LEVEL, production),
    seedDevAccounts: seedDevAccountsSetting(env),
    saml: samlSettings(env),
    universityEmailDomains: cleanEmailDomains((env.UNIVERSITY_EMAIL_DOMAINS ?? (production ? '' : DEVELOPMENT_UNIVERSITY_DOMAIN)).split(',')),
    clockPolicy: clockPolicySetting(env),
    maxCachedWorkflows: positiveSetting('WORKER_MAX_CACHED_WORKFLOWS', env.WORKER_MAX_CACHED_WORKFLOWS, 250),
    effectRetryWindowMs: positiveHours('EFFECT_RETRY_WINDOW_HOURS', env.EFFECT_RETRY_WINDOW_HOURS, 72),
    inboundMail: loadInboundMailSettings(env, production),
    webhooks: loadWebhookSettings(env, production),
    renewals: loadRenewalSettings(env),
    reply: replySettings(env),
    letterSigning: letterSigningSettings(env, dataDir),
  };
}

/** The reply domain outside production when REPLY_TO_DOMAIN is unset: the development inbound listener accepts it. */
const DEVELOPMENT_REPLY_TO_DOMAIN = 'coi-portal.local';
/** How long a reply address is honoured when REPLY_TOKEN_MAX_AGE_DAYS is unset. */
export const DEFAULT_REPLY_TOKEN_MAX_AGE_DAYS = 365;
/** The reply-token key when REPLY_TOKEN_SECRET is unset: derived from the server key with its own label. */
export const deriveReplyTokenKey = (serverKey: string) => createHmac('sha256', serverKey).update('coi-portal reply-token v1').digest('hex');
const DEFAULT_REPLY_TO_LOCAL = 'reply';
/** The longest token (a 10-digit request number) and its `+`: what a local part must leave room for. */
const LONGEST_TOKEN_SUFFIX = 1 + 10 + 1 + 24;

/** Reads the ReplySettings (REPLY_TO_LOCAL, REPLY_TO_DOMAIN, REPLY_TOKEN_SECRET, REPLY_TOKEN_MAX_AGE_DAYS). */
export function replySettings(env: NodeJS.ProcessEnv = process.env): ReplySettings {
  const production = env.NODE_ENV === 'production';
  const local = (env.REPLY_TO_LOCAL?.trim() || DEFAULT_REPLY_TO_LOCAL).toLowerCase();
  if (!/^[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?$/.test(local) || local.includes('..') || local.length + LONGEST_TOKEN_SUFFIX > MAX_LOCAL_PART_LENGTH) {
    throw new ConfigError(`REPLY_TO_LOCAL must be letters, digits, dots, hyphens or underscores, at most ${MAX_LOCAL_PART_LENGTH - LONGEST_TOKEN_SUFFIX} characters, without "+" (got "${env.REPLY_TO_LOCAL}")`);
  }
  const domain = (env.REPLY_TO_DOMAIN?.trim() || (production ? '' : DEVELOPMENT_REPLY_TO_DOMAIN)).toLowerCase() || null;
  if (domain && !/^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/.test(domain)) {
    throw new ConfigError(`REPLY_TO_DOMAIN must be a domain name such as replies.university.edu (got "${env.REPLY_TO_DOMAIN}")`);
  }
  const secret = env.REPLY_TOKEN_SECRET?.trim();
  if (production && secret && secret.length < MIN_PRODUCTION_JWT_SECRET_LENGTH) {
    throw new ConfigError(`REPLY_TOKEN_SECRET is ${secret.length} characters long: with NODE_ENV=production it must have at least ${MIN_PRODUCTION_JWT_SECRET_LENGTH} (openssl rand -base64 48), or be unset to derive it from JWT_SECRET.`);
  }
  const serverKey = production ? productionJwtSecret(env.JWT_SECRET) : env.JWT_SECRET || DEVELOPMENT_JWT_SECRET;
  const mailFrom = env.MAIL_FROM?.trim() || env.RISK_MANAGEMENT_EMAIL?.trim() || DEFAULT_RISK_MANAGEMENT_EMAIL;
  const fromDomain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(mailFrom)?.[1]?.toLowerCase();
  return {
    local,
    domain,
    tokenKey: secret || deriveReplyTokenKey(serverKey),
    tokenMaxAgeDays: positiveSetting('REPLY_TOKEN_MAX_AGE_DAYS', env.REPLY_TOKEN_MAX_AGE_DAYS, DEFAULT_REPLY_TOKEN_MAX_AGE_DAYS),
    messageIdDomain: fromDomain || 'coi-portal.local',
  };
}

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;
export type LogLevelSetting = (typeof LOG_LEVELS)[number];

function logLevelSetting(value: string | undefined, production: boolean): LogLevelSetting {
  const raw = value?.trim().toLowerCase();
  if (!raw) return production ? 'info' : 'warn';
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${value}")`);
  return raw as LogLevelSetting;
}

/** TRUST_PROXY: unset or false, true, a number of hops, or a comma-separated list of addresses and CIDR ranges. */
const MEGABYTE = 1024 * 1024;

/** Hours (a positive number, fractions allowed) from the setting `name`, in milliseconds. */
function positiveHours(name: string, value: string | undefined, fallback: number): number {
  const raw = value?.trim();
  const hoursValue = raw ? Number(raw) : fallback;
  if (!Number.isFinite(hoursValue) || hoursValue <= 0) throw new ConfigError(`${name} must be a positive number of hours (got "${raw}")`);
  return hoursValue * 3_600_000;
}

/** A whole number ≥ 1 from the setting `name`, or `fallback` when it is unset or empty. */
/**
 * How long opening a PostgreSQL connection may take before it is an error (DATABASE_CONNECT_TIMEOUT_MS, default 5 s):
 * an unreachable database fails in seconds instead of hanging a request. Read by every pool and client the portal opens.
 */
export const databaseConnectTimeoutMs = (env: NodeJS.ProcessEnv = process.env): number =>
  positiveSetting('DATABASE_CONNECT_TIMEOUT_MS', env.DATABASE_CONNECT_TIMEOUT_MS, 5_000);

function positiveSetting(name: string, value: string | undefined, fallback: number): number {
  const raw = value?.trim();
  if (!raw) return fallback;
  const number = Number(raw);
  if (!Number.isInteger(number) || number < 1) throw new ConfigError(`${name} must be a whole number of at least 1 (got "${raw}")`);
  return number;
}

function trustProxySetting(value: string | undefined): boolean | number | string[] {
  const raw = value?.trim() ?? '';
  if (raw === '' || raw.toLowerCase() === 'false') return false;
  if (raw.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
  const bad = entries.find((entry) => !/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(entry) && !['loopback', 'linklocal', 'uniquelocal'].includes(entry));
  if (bad) throw new ConfigError(`TRUST_PROXY must be true, false, a number of proxy hops, or addresses/CIDR ranges separated by commas (got "${bad}")`);
  return entries;
}

/**
 * TRUST_PROXY in production: never `true`. With it Fastify takes the left-most X-Forwarded-For entry, which the
 * client writes: straight to the API, or through a proxy that appends to the header (nginx's
 * $proxy_add_x_forwarded_for), anyone would choose the address every per-address limit and the security log see.
 * The proxy's address or CIDR (or the number of proxies in front) names whom to believe.
 */
function productionTrustProxySetting(value: string | undefined): boolean | number | string[] {
  const setting = trustProxySetting(value);
  if (setting === true) {
    throw new ConfigError('TRUST_PROXY=true is refused with NODE_ENV=production: every caller could choose the address the limits and the security log see. '
      + 'Set the proxy\'s address or CIDR (e.g. TRUST_PROXY=10.0.0.5 or 10.0.0.0/24), or the number of proxies in front (TRUST_PROXY=1).');
  }
  return setting;
}

const numberList = (value: string, name: string): number[] => {
  const numbers = value.split(',').map((v) => Number(v.trim()));
  if (numbers.some((n) => !Number.isFinite(n) || n < 0)) throw new ConfigError(`${name} must be non-negative numbers separated by commas (got "${value}")`);
  return numbers;
};

/**
 * The clocks of domain/request-clocks.ts from the environment (docs/OPERATIONS.md "The request's timers"), each with the default of
 * DEFAULT_CLOCK_POLICY. CLOCK_DAY_SECONDS compresses every day to that many seconds (tests, demonstrations).
 */
export function clockPolicySetting(env: NodeJS.ProcessEnv = process.env): ClockPolicy {
  const d = DEFAULT_CLOCK_POLICY;
  const reminders = env.REMINDER_BUSINESS_DAYS ? numberList(env.REMINDER_BUSINESS_DAYS, 'REMINDER_BUSINESS_DAYS') : d.reminderAfterBusinessDays;
  if (reminders.length !== 2 || reminders[1] <= reminders[0]) throw new ConfigError('REMINDER_BUSINESS_DAYS must be two numbers N,M with M > N (e.g. 5,10)');
  const autoClose = env.AUTO_CLOSE_BUSINESS_DAYS?.trim();
  const autoCloseDays = autoClose && autoClose !== 'off' ? numberList(autoClose, 'AUTO_CLOSE_BUSINESS_DAYS')[0] : d.autoClose.afterBusinessDays;
  if (autoClose !== 'off' && autoCloseDays <= reminders[1]) throw new ConfigError('AUTO_CLOSE_BUSINESS_DAYS must come after the second reminder (or be off)');
  const hours = (env.OFFICE_HOURS ?? `${d.calendar.officeHours.start}-${d.calendar.officeHours.end}`).split('-').map((t) => t.trim());
  if (hours.length !== 2 || !hours.every((t) => /^\d{2}:\d{2}$/.test(t)) || hours[0] >= hours[1]) throw new ConfigError('OFFICE_HOURS must read HH:MM-HH:MM (e.g. 08:00-17:00)');
  const seconds = env.CLOCK_DAY_SECONDS ? Number(env.CLOCK_DAY_SECONDS) : null;
  if (seconds !== null && !(seconds > 0)) throw new ConfigError('CLOCK_DAY_SECONDS must be a positive number of seconds');
  return {
    calendar: {
      timeZone: env.OFFICE_TIME_ZONE ?? d.calendar.timeZone,
      officeHours: { start: hours[0], end: hours[1] },
      workDays: env.OFFICE_WORK_DAYS ? numberList(env.OFFICE_WORK_DAYS, 'OFFICE_WORK_DAYS') : d.calendar.workDays,
      holidays: env.OFFICE_HOLIDAYS !== undefined ? env.OFFICE_HOLIDAYS.split(',').map((h) => h.trim()).filter(Boolean) : d.calendar.holidays,
    },
    compressedDayMs: seconds === null ? null : seconds * 1000,
    reminderAfterBusinessDays: [reminders[0], reminders[1]],
    autoClose: { enabled: autoClose !== 'off', afterBusinessDays: autoCloseDays },
    escalateAfterBusinessDays: env.ESCALATION_BUSINESS_DAYS ? numberList(env.ESCALATION_BUSINESS_DAYS, 'ESCALATION_BUSINESS_DAYS')[0] : d.escalateAfterBusinessDays,
    releaseValidityDays: env.SIGNED_RELEASE_VALID_DAYS ? numberList(env.SIGNED_RELEASE_VALID_DAYS, 'SIGNED_RELEASE_VALID_DAYS')[0] : d.releaseValidityDays,
  };
}

const LOOPBACK = /^(127(?:\.\d{1,3}){3}|::1|localhost|\[::1\])$/i;

/** Whether the API listening on `host` is reachable from this machine only. */
export const isLoopbackHost = (host: string) => LOOPBACK.test(host);

/**
 * Development defaults never face a network: with the development JWT secret (anyone can sign a
 * token with it) or the development accounts (their passwords are in the README), the API listens on a loopback
 * address only. Returns the reason to refuse, or null when listening on `config.apiHost` is safe.
 */
export function unsafeListenReason(config: Pick<AppConfig, 'apiHost' | 'jwtSecret' | 'seedDevAccounts'>): string | null {
  if (LOOPBACK.test(config.apiHost)) return null;
  const defaults = [
    config.jwtSecret === DEVELOPMENT_JWT_SECRET ? 'the development JWT secret (set JWT_SECRET: openssl rand -base64 48)' : null,
    config.seedDevAccounts ? 'the development accounts, whose passwords are published (set SEED_DEV_ACCOUNTS=false, or NODE_ENV=production)' : null,
  ].filter(Boolean);
  if (!defaults.length) return null;
  return `Refusing to listen on ${config.apiHost}: this API runs with ${defaults.join(' and ')}. `
    + 'Development defaults are served on a loopback address only (HOST=127.0.0.1).';
}
