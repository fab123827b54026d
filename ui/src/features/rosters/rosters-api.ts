/** Rosters uploaded in bulk: the template download, the upload, the roster with a page of its rows, a row fixed in place, Submit all valid. */
import type { RosterList, RosterRecord, RosterRowRecord } from '../../../../contract/roster.schema';
import type { Wire } from '../../../../contract/wire';
import type { RosterKind, RosterRowStatus } from '../../../../domain';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { useInvalidatingMutation } from '../../lib/use-invalidating-mutation';

export type Roster = Wire<typeof RosterRecord>;
export type RosterRow = Wire<typeof RosterRowRecord>;
export type RosterSummaries = Wire<typeof RosterList>;

export const getRosters = (signal?: AbortSignal) => api.get<RosterSummaries>('/rosters', { signal });

export const getRoster = (id: number, page: { skip: number; status?: RosterRowStatus }, signal?: AbortSignal) =>
  api.get<Roster>(`/rosters/${id}`, { query: { $skip: page.skip, ...(page.status ? { status: page.status } : {}) }, signal });

export const downloadTemplate = (kind: RosterKind, format: 'xlsx' | 'csv') => api.blob('/roster-templates', { query: { kind, format } });

/** The upload answers the new roster: its first page becomes the roster page's data at once. */
export const useUploadRoster = () => useInvalidatingMutation({
  mutationFn: ({ kind, file }: { kind: RosterKind; file: File }) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return api.post<Roster>('/rosters', form, { query: { kind } });
  },
  invalidates: [queryKeys.rosters.all, queryKeys.requests.all],
});

/** A row fixed in place: its roster's pages (counts, states) and the requests (a new or changed draft) are read again. */
export const useFixRosterRow = (rosterId: number) => useInvalidatingMutation({
  mutationFn: ({ rowId, values }: { rowId: number; values: Record<string, string> }) =>
    api.patch<RosterRow>(`/rosters/${rosterId}/rows/${rowId}`, { values }),
  invalidates: [queryKeys.rosters.detail(rosterId), queryKeys.requests.all],
});

/** "Submit all valid": the roster's rows are queued; the page follows their progress while any is queued. */
export const useSubmitRoster = (rosterId: number) => useInvalidatingMutation({
  mutationFn: () => api.post<Roster>(`/rosters/${rosterId}/submit`),
  invalidates: [queryKeys.rosters.detail(rosterId), queryKeys.requests.all],
});
