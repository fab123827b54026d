/**
 * Instant certificates (contract/instant.schema.ts): the office's switch, its rules and their versions, the
 * simulator, the "Check after issue" list and a request's decision. Administrators only.
 */
import type {
  HeldRequesterList, InstantCheckPage, InstantDecisionRecord, InstantRuleBody, InstantRuleList, InstantRuleRecord, InstantRuleVersionRecord, InstantSettingsRecord,
  SimulateBody, SimulationResult,
} from '../../../../contract/instant.schema';
import type { Wire } from '../../../../contract/wire';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { useInvalidatingMutation } from '../../lib/use-invalidating-mutation';

export type InstantRule = Wire<typeof InstantRuleRecord>;
export type InstantSettings = Wire<typeof InstantSettingsRecord>;
export type RuleVersion = Wire<typeof InstantRuleVersionRecord>;
export type RuleBody = Wire<typeof InstantRuleBody>;
export type InstantCheck = Wire<typeof InstantCheckPage>['data'][number];
export type InstantDecision = Wire<typeof InstantDecisionRecord>;
export type Simulation = Wire<typeof SimulationResult>;

export const getInstantRules = (signal?: AbortSignal) => api.get<Wire<typeof InstantRuleList>>('/instant-rules', { signal });

export const getRuleVersions = (id: number, signal?: AbortSignal) =>
  api.get<{ data: RuleVersion[] }>(`/instant-rules/${id}/versions`, { signal }).then((r) => r.data);

export const getInstantChecks = (limit: number, skip: number, signal?: AbortSignal) =>
  api.get<Wire<typeof InstantCheckPage>>('/instant-checks', { query: { $limit: limit, $skip: skip }, signal });

export const getInstantDecision = (requestId: number, signal?: AbortSignal) =>
  api.get<{ decision: InstantDecision | null }>(`/requests/${requestId}/instant-decision`, { signal }).then((r) => r.decision);

const useRulesWrite = <A, V>(write: (variables: V) => Promise<A>) => useInvalidatingMutation({ mutationFn: write, invalidates: [queryKeys.instantRules] });

/** The office-wide switch: off, no rule issues anything. */
export const useOfficeSwitch = () => useRulesWrite((enabled: boolean) => api.put<InstantSettings>('/instant-settings', { enabled }));

/** One rule on or off; switching on a rule that cannot be evaluated is refused with the reason. */
export const useRuleSwitch = () => useRulesWrite(({ id, enabled }: { id: number; enabled: boolean }) =>
  api.put<InstantRule>(`/instant-rules/${id}/enabled`, { enabled }));

/** A new rule (switched off), or a new version of one made on the version the editor started from (else 409). */
export const useSaveRule = () => useRulesWrite(({ id, version, body }: { id: number | null; version: number | null; body: RuleBody }) =>
  (id === null ? api.post<InstantRule>('/instant-rules', body) : api.put<InstantRule>(`/instant-rules/${id}`, { ...body, version })));

export const useConfirmCheck = () => useInvalidatingMutation({
  mutationFn: (decisionId: number) => api.post<InstantDecision>(`/instant-checks/${decisionId}/confirm`),
  invalidates: [queryKeys.instantChecksAll],
});

/** A read with a body: nothing the screens hold changes. */
export const useSimulation = () => useInvalidatingMutation({
  mutationFn: (body: Wire<typeof SimulateBody>) => api.post<Simulation>('/instant-rules/simulate', body),
  invalidates: [],
});

export type HeldRequester = Wire<typeof HeldRequesterList>['data'][number];
export const getInstantHolds = (signal?: AbortSignal) => api.get<Wire<typeof HeldRequesterList>>('/instant-holds', { signal }).then((r) => r.data);

/** Releases a requester from hold: their next requests may issue instantly again. */
export const useReleaseHold = () => useInvalidatingMutation({
  mutationFn: (userId: number) => api.put(`/users/${userId}/instant-hold`, { hold: false }),
  invalidates: [queryKeys.instantHolds],
});
