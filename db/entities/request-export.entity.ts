import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from './common';

type ExportState = 'running' | 'done' | 'failed';

/** An Export Requests run (spec 2 §7.11): the xlsx lives under DATA_DIR/exports as `storedName`. */
export const RequestExportSchema = defineEntity({
  name: 'RequestExport',
  tableName: 'request_exports',
  properties: {
    ...baseProperties,
    filename: p.string(),
    storedName: p.string().unique(),
    state: p.string().length(16).$type<ExportState>().default('running'),
    dateFrom: p.datetime().nullable(),
    dateTo: p.datetime().nullable(),
    filterByType: p.string().nullable(),
    rowsTotal: p.integer().default(0),
    rowsWritten: p.integer().default(0),
    size: p.integer().nullable(),
    createdBy: p.string(),
    /** the user named by `createdBy` (the name stays: history shows users who are gone) */
    createdByUserId: p.integer().nullable(),
    failure: p.text().nullable(),
  },
});
export type RequestExport = InferEntity<typeof RequestExportSchema>;
