/** Request exports to xlsx (spec 2 §7.11): past exports with their progress, a new export, and its file. */
import type { CreateExportBody, ExportRecord } from '../../../../contract/desk.schema';
import type { Wire } from '../../../../contract/wire';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { useInvalidatingMutation } from '../../lib/use-invalidating-mutation';

export type RequestExport = Wire<typeof ExportRecord>;

export const getExports = (signal?: AbortSignal) => api.get<{ data: RequestExport[] }>('/export-requests', { signal }).then((r) => r.data);

export const downloadExport = (id: number) => api.blob(`/export-requests/${id}/file`);

/** A new export joins the list (which then reads its progress while it runs). */
export const useStartExport = () => useInvalidatingMutation({
  mutationFn: (body: Wire<typeof CreateExportBody>) => api.post<RequestExport>('/export-requests', body),
  invalidates: [queryKeys.exports],
});
