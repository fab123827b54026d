/**
 * Export Requests (spec 2 §7.11) as durable work: the API checks the input, records the export
 * (request_exports, with its progress) and starts its workflow (workflows/export.workflow.ts); a worker writes the sheet
 * (services/requests/request-export-sheet.ts). The export survives the API that started it; the list of past exports offers the files.
 */
import { randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { Orm } from '../../db/orm';
import { RequestExportSchema, type RequestExport } from '../../db/entities';
import { ExportInputError, whereOf, type ExportInput } from './request-export-sheet';
import { EXPORT_FILE_NAME } from '../../domain';
import { EXPORT_WORKFLOW, exportWorkflowId } from '../../workflows/export.messages';
import { invalid, unavailable } from '../refusals';

export { exportPath } from './request-export-sheet';

/** How long the start waits for Temporal before the export is refused (and its row marked failed). */
const START_DEADLINE_MS = 5000;

/** Records the run and starts its workflow; answers at once with the running export. */
export async function startExport(orm: Orm, temporal: Client, taskQueue: string, input: ExportInput, createdBy: { name: string; userId: number }, timeZone: string): Promise<RequestExport> {
  if (!EXPORT_FILE_NAME.test(input.filename)) throw invalid('The file name must start with coi_export_', { filename: 'The file name must start with coi_export_' });
  try {
    whereOf(input, timeZone); // refused here, before anything is recorded
  } catch (error) {
    if (error instanceof ExportInputError) throw invalid(error.message, { [error.field]: error.message });
    throw error;
  }
  const em = orm.em.fork();
  const row = em.create(RequestExportSchema, {
    filename: `${input.filename}.xlsx`, storedName: `${randomBytes(12).toString('hex')}.xlsx`, state: 'running',
    dateFrom: input.dateFrom ? new Date(input.dateFrom) : null, dateTo: input.dateTo ? new Date(input.dateTo) : null,
    filterByType: input.filterByType ?? null, createdBy: createdBy.name, createdByUserId: createdBy.userId,
  });
  await em.flush();
  try {
    await temporal.withDeadline(Date.now() + START_DEADLINE_MS, () => temporal.workflow.start(EXPORT_WORKFLOW, {
      taskQueue, workflowId: exportWorkflowId(row.id, row.storedName), args: [{ exportId: row.id }],
    }));
  } catch (error) {
    const failure = 'The export service did not answer in time. Please try again in a few minutes.';
    await em.nativeUpdate(RequestExportSchema, { id: row.id }, { state: 'failed', failure, updatedAt: new Date() });
    throw Object.assign(unavailable(failure), { cause: error });
  }
  return row;
}

export const listExports = (orm: Orm) => orm.em.fork().find(RequestExportSchema, {}, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: 100 });
