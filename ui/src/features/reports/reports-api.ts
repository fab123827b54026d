import type { Reports, ReportsQuery } from '../../../../contract/reports.schema';
import { api } from '../../lib/api-client';
import type { RequestEvent } from '../../../../contract/request-events.schema';

export type { Reports, ReportsQuery };

/** The live events that can move a figure: a status change, a clock's audit row (contract/reports.schema.ts names them). */
export const REPORTS_LIVE_EVENT_KINDS = ['status', 'activity', 'resync'] as const satisfies readonly RequestEvent['kind'][];

export const getReports = (query: ReportsQuery, signal?: AbortSignal) => api.get<Reports>('/reports', { query: { ...query }, signal });

/** The page's figures as an xlsx workbook (one sheet per chart, the filter in each header), with the session's token. */
export const downloadReports = (query: ReportsQuery) => api.blob('/reports.xlsx', { query: { ...query } });

export const reportsFileName = (query: ReportsQuery) => `reports-${query.from}-to-${query.to}.xlsx`;
