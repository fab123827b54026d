/**
 * Renewal season for administrators (contract/renewals.schema.ts): the certificates a new policy year would renew,
 * a request's renewal mark, and the runs with their progress, control and certificates.
 */
import type {
  CandidatesQuery, CandidatesResult, RenewalItemPage, RenewalRun as RenewalRunSchema, RenewalRunList, StartRunBody,
} from '../../../../contract/renewals.schema';
import type { Wire } from '../../../../contract/wire';
import type { RenewalItemState } from '../../../../domain';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { useInvalidatingMutation } from '../../lib/use-invalidating-mutation';

export type Candidates = Wire<typeof CandidatesResult>;
export type RenewalCandidate = Candidates['data'][number];
export type CandidateFilter = Wire<typeof CandidatesQuery>;
export type RenewalRun = Wire<typeof RenewalRunSchema>;
export type RenewalItem = Wire<typeof RenewalItemPage>['data'][number];
export type ItemPage = Wire<typeof RenewalItemPage>;
export type StartRun = Wire<typeof StartRunBody>;
export type RunAction = 'pause' | 'resume' | 'cancel' | 'close-asking';

export const getCandidates = (filter: CandidateFilter, signal?: AbortSignal) =>
  api.get<Candidates>('/renewals/candidates', { query: filter, signal });

export const getRuns = (signal?: AbortSignal) => api.get<Wire<typeof RenewalRunList>>('/renewal-runs', { signal }).then((r) => r.data);

export const getRunItems = (runId: number, state: RenewalItemState | '', limit: number, skip: number, signal?: AbortSignal) =>
  api.get<ItemPage>(`/renewal-runs/${runId}/items`, { query: { state: state || undefined, $limit: limit, $skip: skip }, signal });

/** The run's result as a spreadsheet: fetched with the session's token (a plain link would carry none). */
export const downloadRunResult = (runId: number) => api.blob(`/renewal-runs/${runId}/result.xlsx`);

/** A new run: it joins the runs, and its certificates leave the "will renew" rows as they are renewed. */
export const useStartRun = () => useInvalidatingMutation({
  mutationFn: (body: StartRun) => api.post<RenewalRun>('/renewal-runs', body),
  invalidates: [queryKeys.renewals.runs, queryKeys.renewals.candidatesAll],
});

export const useRunControl = () => useInvalidatingMutation({
  mutationFn: ({ runId, action }: { runId: number; action: RunAction }) => api.post<RenewalRun>(`/renewal-runs/${runId}/${action}`),
  invalidates: [queryKeys.renewals.runs, queryKeys.renewals.candidatesAll],
});
