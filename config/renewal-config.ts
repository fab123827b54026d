/**
 * Settings of renewal runs (domain/renewals.ts, workflows/renewal-run.workflow.ts): how fast a run reissues
 * certificates, so that renewal season never crowds out the day's approvals on the letters queue.
 */
import { ConfigError } from './app-config';

export interface RenewalSettings {
  /** at most this many renewals started a second (each is a signed letter and an email) */
  perSecond: number;
  /** a run waits while this many of its letters are queued and not yet sent (backpressure on the letters queue) */
  maxWaiting: number;
}

const positive = (name: string, value: string | undefined, fallback: number): number => {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`${name} must be a positive number (got "${value}")`);
  return n;
};

/** RENEWAL_PER_SECOND (12), RENEWAL_MAX_WAITING (48). */
export function loadRenewalSettings(env: NodeJS.ProcessEnv): RenewalSettings {
  return {
    perSecond: positive('RENEWAL_PER_SECOND', env.RENEWAL_PER_SECOND, 12),
    maxWaiting: Math.round(positive('RENEWAL_MAX_WAITING', env.RENEWAL_MAX_WAITING, 48)),
  };
}
