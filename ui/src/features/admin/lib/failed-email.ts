import { EMAIL_FAILED_ACTIVITY } from '../../../../../domain';
import type { ActivityRecord } from '../../../types/api';

/**
 * Audit rows of an email the workflow could not send: activity type EMAIL_FAILED_ACTIVITY, text
 * `"<template title>" email failed: <reason>` (domain emailFailedAuditText), and the id of the effect that failed.
 */

/** The template title of a failed email that may be sent again, or null for any other row. */
export function resendableTemplateTitle(activity: ActivityRecord): string | null {
  if (activity.activityType !== EMAIL_FAILED_ACTIVITY || activity.effectId == null) return null;
  // The title is what stands between the first pair of double quotes.
  const title = /"([^"]+)"/.exec(activity.activityText)?.[1];
  return title ?? null;
}
