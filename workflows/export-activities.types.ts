/**
 * Activity signatures of the export workflow. Declared beside the workflow that calls them;
 * activities/ implements them and imports this file, workflows/ never imports activities/ (the sandbox loads no
 * activity code, and the two folders do not import each other).
 */
import type { ExportWorkflowInput } from './export.messages';

export interface ExportActivities {
  /** Writes the export's sheet and marks its row done (or failed, for good, with the reason). */
  writeExport(input: ExportWorkflowInput): Promise<'done' | 'failed'>;
}
