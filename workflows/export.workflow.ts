/**
 * An export (workflows/export.messages.ts): one activity writes the sheet, heartbeating its progress, so a worker
 * that dies mid-sheet is noticed within the heartbeat timeout and another attempt writes it again from the start.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { ExportActivities } from './export-activities.types';
import { EXPORT_ATTEMPTS, type ExportWorkflowInput } from './export.messages';

const { writeExport } = proxyActivities<ExportActivities>({
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: EXPORT_ATTEMPTS },
});

export async function exportWorkflow(input: ExportWorkflowInput): Promise<'done' | 'failed'> {
  return writeExport(input);
}
