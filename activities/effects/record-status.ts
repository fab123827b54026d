import { ApplicationFailure } from '@temporalio/common';
import type { AppConfig } from '../../config/app-config';
import type { Orm } from '../../db/orm';
import { RequestActivitySchema, RequestEffectSchema, RequestSchema } from '../../db/entities';
import { statusEmailRecipients } from '../../domain';
import type { RecordStatusInput } from '../request-activities.types';
import { takeSnapshot } from './request-snapshot';

async function snapshotFor(em: Parameters<typeof takeSnapshot>[0], request: Parameters<typeof takeSnapshot>[1], input: RecordStatusInput, config: AppConfig) {
  const snapshot = await takeSnapshot(em, request, { at: input.at, publicUrl: config.publicUrl, timeZone: config.clockPolicy.calendar.timeZone, withLetter: input.effect!.kind === 'letter-and-email' });
  snapshot.recipients = statusEmailRecipients(input.effect!.templateTitle, request, config.riskManagementEmail);
  if (input.additionalInformation) snapshot.variables.additionalInformation = input.additionalInformation;
  return snapshot;
}

/**
 * Persists a status change in one transaction: the request's status and dates, the command that made it, its
 * audit row, and the effect it owes with a snapshot of the request as it is now. A retry with the same key
 * changes nothing.
 */
export function recordStatusActivity(deps: { orm: Orm; config: AppConfig }) {
  return async function recordStatus(input: RecordStatusInput): Promise<void> {
    const auditKey = `${input.key}:status`;
    await deps.orm.em.fork().transactional(async (em) => {
      if (await em.findOne(RequestActivitySchema, { idempotencyKey: auditKey })) return;
      const request = await em.findOne(RequestSchema, input.requestId);
      if (!request) throw ApplicationFailure.nonRetryable(`Request ${input.requestId} does not exist`, 'NotFound');
      request.status = input.status;
      if (input.submitted) request.submitDate = new Date(input.at);
      request.completedDate = input.completedDate ? new Date(input.completedDate) : null;
      if (input.verified !== undefined) request.verified = input.verified;
      if (input.internalNotes !== undefined) request.internalNotes = input.internalNotes;
      if (input.commandId) request.lastCommandId = input.commandId;
      em.create(RequestActivitySchema, {
        requestId: input.requestId,
        date: new Date(input.at),
        activityType: input.submitted ? 'Submission' : 'Status Change',
        activityText: (input.submitted
          ? `Request submitted (status "${input.status}")`
          : `Status changed from "${input.previousStatus}" to "${input.status}"`) + (input.reason ? `: ${input.reason}` : ''),
        performedBy: input.actor.name,
        idempotencyKey: auditKey,
      } as never);
      if (input.effect) {
        em.create(RequestEffectSchema, {
          idempotencyKey: input.key, requestId: request.id, kind: input.effect.kind, templateTitle: input.effect.templateTitle,
          snapshot: await snapshotFor(em, request, input, deps.config) as never,
        } as never);
      }
    });
  };
}
