/**
 * An administrator's Save without a status change (workflow update `adminSave`): the verification and the internal
 * notes, and one Field Edit audit row naming the fields that changed (as the API's own edits are audited), in one
 * statement, once per key, written only on the version read (a save by someone else between the read and the write is
 * met by reading again). The workflow is the one writer of these fields, as of the status.
 */
import { ApplicationFailure } from '@temporalio/common';
import { sql } from 'kysely';
import type { Orm } from '../../db/orm';
import { RequestSchema } from '../../db/entities';
import { FIELD_EDIT_ACTIVITY, fieldEditAuditText, isFinished, type RequestStatus } from '../../domain';
import type { RecordAdminFieldsInput } from '../../workflows/request-activities.types';

export function recordAdminFieldsActivity(deps: { orm: Orm }) {
  return async function recordAdminFields(input: RecordAdminFieldsInput): Promise<void> {
    const auditKey = `${input.key}:fields`;
    for (let attempt = 1; ; attempt += 1) {
      const em = deps.orm.em.fork();
      const request = await em.findOne(RequestSchema, input.requestId);
      if (!request) throw ApplicationFailure.nonRetryable(`Request ${input.requestId} does not exist`, 'NotFound');
      const verifiedChanges = input.verified !== undefined && input.verified !== request.verified;
      const notesChange = input.internalNotes !== undefined && (input.internalNotes ?? '') !== (request.internalNotes ?? '');
      // A finished request keeps the verification it was decided with; its notes may still be written.
      if (verifiedChanges && isFinished(request.status as RequestStatus)) throw ApplicationFailure.nonRetryable('This request is finished', 'BadRequest');
      const labels = [...(verifiedChanges ? ['Verified'] : []), ...(notesChange ? ['Internal Notes'] : [])];
      const { rows: [outcome] } = await sql<{ written: boolean; done: boolean }>`
        with req as (
          update requests set
            verified = coalesce(${input.verified ?? null}::boolean, verified),
            internal_notes = case when ${input.internalNotes !== undefined}::boolean then ${input.internalNotes ?? null} else internal_notes end,
            last_command_id = ${input.commandId}, version = version + 1, updated_at = now()
          where id = ${input.requestId} and version = ${request.version}
            and not exists (select 1 from request_activity where idempotency_key = ${auditKey})
          returning id
        ), audit as (
          insert into request_activity (request_id, date, activity_type, activity_text, performed_by, performed_by_user_id, channel,
            idempotency_key, created_at, updated_at)
          select id, now(), ${FIELD_EDIT_ACTIVITY}, ${fieldEditAuditText(labels)}, ${input.actor.name}, ${input.actor.userId ?? null}::int, 'Portal',
            ${auditKey}, now(), now()
          from req where ${labels.length > 0}::boolean
        )
        select exists(select 1 from req) as written, exists(select 1 from requests r where r.id = ${input.requestId} and r.last_command_id = ${input.commandId}) as done`
        .execute(em.getKysely());
      if (outcome.written || outcome.done) return;
      if (attempt >= 3) throw new Error(`Request ${input.requestId} kept changing while an administrator's Save was being recorded`);
    }
  };
}
