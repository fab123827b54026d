import type { Orm } from '../../db/orm';
import { RequestActivitySchema, RequestSchema } from '../../db/entities';
import type { RecordStatusChangeInput } from '../request-activities.types';

/** LEGACY activity of runs recorded before the `commands-and-effects` patch (see workflows/legacy/). */
/** Persists a status change and its audit row in one transaction; a retry with the same key changes nothing. */
export function recordStatusChangeActivity(orm: Orm) {
  return async function recordStatusChange(input: RecordStatusChangeInput): Promise<void> {
    const auditKey = `${input.key}:status`;
    await orm.em.fork().transactional(async (em) => {
      if (await em.findOne(RequestActivitySchema, { idempotencyKey: auditKey })) return;
      const request = await em.findOneOrFail(RequestSchema, input.requestId);
      request.status = input.status;
      if (input.submitted) request.submitDate = new Date(input.at);
      request.completedDate = input.completedDate ? new Date(input.completedDate) : null;
      if (input.verified !== undefined) request.verified = input.verified;
      if (input.internalNotes !== undefined) request.internalNotes = input.internalNotes;
      em.create(RequestActivitySchema, {
        requestId: input.requestId,
        date: new Date(input.at),
        activityType: input.submitted ? 'Submission' : 'Status Change',
        activityText: input.submitted
          ? `Request submitted (status "${input.status}")`
          : `Status changed from "${input.previousStatus}" to "${input.status}"`,
        performedBy: input.actor.name,
        idempotencyKey: auditKey,
      });
    });
  };
}
