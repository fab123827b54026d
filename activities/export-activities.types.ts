/** Activity signatures of the export workflow (type-only import into the workflow bundle). */
import type { ExportWorkflowInput } from '../workflows/export.messages';

export interface ExportActivities {
  /** Writes the export's sheet and marks its row done (or failed, for good, with the reason). */
  writeExport(input: ExportWorkflowInput): Promise<'done' | 'failed'>;
}
