import type { ActivityRecord } from '../../../types/api';

/**
 * Audit rows of an email the workflow could not send: activity type 'Email Failed', text
 * `"<template title>" email failed: <reason>`, and the id of the effect that failed. The workflow writes them
 * (domain EMAIL_FAILED_ACTIVITY / emailFailedAuditText on the lead's branch; repeated here until the branches
 * meet, and only read, never written, by the UI).
 */
export const EMAIL_FAILED_ACTIVITY = 'Email Failed';

/** The template title of a failed email that may be sent again, or null for any other row. */
export function resendableTemplateTitle(activity: ActivityRecord): string | null {
  if (activity.activityType !== EMAIL_FAILED_ACTIVITY || activity.effectId == null) return null;
  // The title is what stands between the first pair of double quotes.
  const title = /"([^"]+)"/.exec(activity.activityText)?.[1];
  return title ?? null;
}
