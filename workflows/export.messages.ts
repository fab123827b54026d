/**
 * Export Requests as durable work: the API records the export and starts this workflow; a worker
 * writes the sheet. An API that stops (or dies) after starting it changes nothing, and a worker that dies mid-sheet
 * is replaced by another attempt. Shared by the API, the worker and the workflow: names and types only.
 */
export const EXPORT_WORKFLOW = 'exportWorkflow';

/** Attempts before an export is marked failed (the activity marks it on the last one). */
export const EXPORT_ATTEMPTS = 5;

export interface ExportWorkflowInput { exportId: number }

/**
 * One workflow per recorded export: a repeated start is the same workflow. The row's random file name is part of it,
 * so a database restored or recreated behind the same Temporal (ids start at 1 again) never meets an old export's run.
 */
export const exportWorkflowId = (exportId: number, storedName: string) => `export-${exportId}-${storedName.replace(/\.xlsx$/, '').slice(0, 12)}`;
