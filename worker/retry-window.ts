/**
 * Outages are waited out, not failed. Emails and letters retry transient failures (a mail server
 * that refuses connections or answers 4xx, Chromium missing or crashed, PostgreSQL away) with a backoff growing to
 * 5 minutes, for as long as the retry window (EFFECT_RETRY_WINDOW_HOURS, default 72 h) since the effect was first
 * scheduled; then it fails visibly ("Email Failed" in the audit trail, Send again). Permanent answers (SMTP 5xx, a
 * refused or invalid address, a missing template) fail at once, as before: they are non-retryable already.
 *
 * The window is kept here, on the worker, rather than as the workflow's schedule-to-close timeout: an operator changes
 * it with a setting, and runs already recorded replay unchanged.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';

/** The activities that send or print something a person waits for. Status writes retry until they land. */
const WINDOWED_ACTIVITIES: ReadonlySet<string> = new Set(['sendEffectEmail', 'renderEffectLetter', 'issueLetterAndEmail', 'sendAccountEmail']);

/** Account emails carry a link that lasts 24 hours: retrying past it would deliver a dead link. */
const ACCOUNT_LINK_LIFE_MS = 24 * 3_600_000;
const windowOf = (activityType: string, windowMs: number) => (activityType === 'sendAccountEmail' ? Math.min(windowMs, ACCOUNT_LINK_LIFE_MS) : windowMs);

/** 45 s, 12 min, 72 h: how long an operator reads it took. */
function duration(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 360_000) / 10} h`;
}

export function retryWindowInterceptor(windowMs: number): ActivityInterceptorsFactory {
  return (ctx) => ({
    inbound: {
      async execute(input, next) {
        try {
          return await next(input);
        } catch (error) {
          const { activityType, scheduledTimestampMs } = ctx.info;
          // Delivered, only its mark waits for PostgreSQL (activities/effects/send-email.ts): never failed.
          if ((error as Error)?.name === 'DeliveredNotMarked') throw error;
          const retryable = !(error instanceof ApplicationFailure && error.nonRetryable);
          const waited = Date.now() - scheduledTimestampMs;
          if (!retryable || !WINDOWED_ACTIVITIES.has(activityType) || waited < windowOf(activityType, windowMs)) throw error;
          const reason = (error as Error)?.message ?? String(error);
          throw ApplicationFailure.nonRetryable(`${reason} (still failing after ${duration(waited)} of retrying)`, 'RetryWindowExceeded');
        }
      },
    },
  });
}
