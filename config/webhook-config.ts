/**
 * Settings of webhook deliveries (domain/webhooks.ts, domain/webhook-targets.ts). The two that loosen the address
 * rules exist for development and the tests' local receiver only: NODE_ENV=production refuses to start with either.
 */
import { WEBHOOK_DISABLE_AFTER_MS, type WebhookTargetPolicy } from '../domain';
import { ConfigError } from './app-config';

export interface WebhookSettings extends WebhookTargetPolicy {
  /** Temporal retry policy of one delivery: first wait, longest wait, and how long it is retried in all. */
  retry: { initialMs: number; maximumMs: number; windowMs: number };
  /** an endpoint failing this long without a success is disabled and its owner emailed */
  disableAfterMs: number;
  /** how often the worker looks for deliveries not yet started (a missed notification is caught up by then) */
  sweepMs: number;
}

const flag = (name: string, value: string | undefined): boolean => {
  const raw = value?.trim().toLowerCase();
  if (!raw) return false;
  if (['1', 'true'].includes(raw)) return true;
  if (['0', 'false'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false (got "${value}")`);
};

const millis = (name: string, value: string | undefined, fallback: number): number => {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`${name} must be a positive number of milliseconds (got "${value}")`);
  return n;
};

/**
 * WEBHOOK_ALLOW_HTTP (http:// endpoints), WEBHOOK_ALLOW_PRIVATE_TARGETS (loopback and private addresses): off unless
 * set, refused in production. WEBHOOK_RETRY_INITIAL_MS (1 s), WEBHOOK_RETRY_MAX_MS (1 h), WEBHOOK_RETRY_WINDOW_MS
 * (72 h), WEBHOOK_DISABLE_AFTER_MS (72 h), WEBHOOK_SWEEP_MS (5 s).
 */
export function loadWebhookSettings(env: NodeJS.ProcessEnv, production: boolean): WebhookSettings {
  const allowHttp = flag('WEBHOOK_ALLOW_HTTP', env.WEBHOOK_ALLOW_HTTP);
  const allowPrivateTargets = flag('WEBHOOK_ALLOW_PRIVATE_TARGETS', env.WEBHOOK_ALLOW_PRIVATE_TARGETS);
  if (production && (allowHttp || allowPrivateTargets)) {
    throw new ConfigError('WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE_TARGETS are refused with NODE_ENV=production: '
      + 'webhooks go over https to public addresses only.');
  }
  return {
    allowHttp,
    allowPrivateTargets,
    retry: {
      initialMs: millis('WEBHOOK_RETRY_INITIAL_MS', env.WEBHOOK_RETRY_INITIAL_MS, 1_000),
      maximumMs: millis('WEBHOOK_RETRY_MAX_MS', env.WEBHOOK_RETRY_MAX_MS, 3_600_000),
      windowMs: millis('WEBHOOK_RETRY_WINDOW_MS', env.WEBHOOK_RETRY_WINDOW_MS, 72 * 3_600_000),
    },
    disableAfterMs: millis('WEBHOOK_DISABLE_AFTER_MS', env.WEBHOOK_DISABLE_AFTER_MS, WEBHOOK_DISABLE_AFTER_MS),
    sweepMs: millis('WEBHOOK_SWEEP_MS', env.WEBHOOK_SWEEP_MS, 5_000),
  };
}
