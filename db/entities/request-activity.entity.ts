import { defineEntity, p } from '@mikro-orm/core';
import type { EffectOutcome } from '../../domain/audit-kinds';
import { baseProperties } from './common';

/** Audit trail entry (spec 1 §3): date, activity type, activity text, performed by, email recipients. */
export const RequestActivitySchema = defineEntity({
  name: 'RequestActivity',
  tableName: 'request_activity',
  properties: {
    ...baseProperties,
    requestId: p.integer().index(),
    date: p.datetime(),
    activityType: p.string(),
    activityText: p.text(),
    performedBy: p.string(),
    /** the user named by `performedBy`, when known (kept as a name too: history shows users who are gone) */
    performedByUserId: p.integer().nullable(),
    recipients: p.text().nullable(),
    channel: p.string().nullable(),
    /** workflow-made entries carry a key so an activity retry never writes a second row */
    idempotencyKey: p.string().nullable().unique(),
    /** on an email-failed row: the effect that failed, so an administrator can send it again */
    effectId: p.integer().nullable(),
    /** what the row says of that effect (domain EFFECT_OUTCOME): set exactly when `effectId` is */
    effectOutcome: p.string().length(16).$type<EffectOutcome>().nullable(),
    /** on a `Submission` or `Status Change` row: the status left and the status entered */
    statusFrom: p.string().nullable(),
    statusTo: p.string().nullable(),
    /** on a row a clock made (domain ClockKind): the reports count them, the text is for people */
    clock: p.string().length(32).nullable(),
  },
});
