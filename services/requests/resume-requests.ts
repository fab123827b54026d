/**
 * Re-creates, from PostgreSQL, the workflows a Temporal that lost its history no longer has (after
 * a restore into a fresh, empty Temporal, docs/OPERATIONS.md "Restore"). For every request still open (submitted and
 * not decided) or still owing an email or letter, its workflow is started as a command would start it (the same
 * operation: services/requests/request-workflow-client.ts); a run that exists is left as it is. A new run arms its clocks from
 * the row's dates (reminders, escalation, auto-close, the release's expiry) and carries out the effects it finds owed,
 * each once (their claimed and sent marks live in PostgreSQL). Exports still marked running are started again too.
 * Run by `npm run admin -- resume` (`node dist/admin.js resume` in the image); harmless to run twice.
 */
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { kysely } from '../../db/kysely';
import { FINISHED_STATUSES, STATUS } from '../../domain';
import { EXPORT_WORKFLOW, exportWorkflowId } from '../../workflows/export.messages';
import { startRequestWorkflow, type RequestStartRow } from './request-workflow-client';

export interface ResumeReport { requests: number; requestsStarted: number; exports: number; exportsStarted: number }

export async function resumeRequests(client: Client, em: EntityManager, taskQueue: string, log: (line: string) => void = () => {}): Promise<ResumeReport> {
  const db = kysely(em);
  const finished: string[] = [...FINISHED_STATUSES, STATUS.draft];
  const { rows } = await sql<RequestStartRow>`
     select r.id, r.request_number as "requestNumber", r.request_type as "requestType", r.certificate_type as "certificateType",
            r.status, r.last_command_id as "lastCommandId", r.requester_email as "requesterEmail"
       from requests r
      where r.request_number is not null and r.submit_date is not null
        and (r.status not in (${sql.join(finished)}) or exists (select 1 from request_effects e where e.request_id = r.id and e.state = 'pending'))
      order by r.id`.execute(db);
  let requestsStarted = 0;
  const access = { temporal: client, taskQueue, answerTimeoutMs: 0 };
  for (const row of rows) if (await startRequestWorkflow(access, row)) requestsStarted += 1;
  log(`requests: ${rows.length} open or owing an email or letter, ${requestsStarted} workflows started (the others were running)`);

  const exports = await db.selectFrom('request_exports').select(['id', 'stored_name as storedName'])
    .where('state', '=', 'running').orderBy('id').execute();
  let exportsStarted = 0;
  for (const row of exports) {
    try {
      await client.workflow.start(EXPORT_WORKFLOW, { taskQueue, workflowId: exportWorkflowId(row.id, row.storedName), args: [{ exportId: row.id }] });
      exportsStarted += 1;
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }
  log(`exports: ${exports.length} still running, ${exportsStarted} workflows started`);
  return { requests: rows.length, requestsStarted, exports: exports.length, exportsStarted };
}
