/**
 * Route schemas of instant certificates (domain/instant-rules.ts): the office's switch, its rules and their versions,
 * the simulator, the "Check after issue" list and a request's decision. Administrators only; a requester never
 * reads a rule's conditions.
 */
import { Type, type Static } from 'typebox';
import { CERTIFICATE_TYPES, INSTANT_LIMITS } from '../domain';
import { Id, Nullable, NullableTimestamp, StringEnum, Timestamp } from './primitives';

/** react-querybuilder's group JSON; its shape and values are judged by domain/instant-rules.ts `ruleProblems`. */
export const RuleConditions = Type.Unsafe<import('../domain').RuleGroup>({
  type: 'object', required: ['combinator', 'rules'],
  properties: { combinator: { type: 'string', enum: ['and', 'or'] }, not: { type: 'boolean' }, rules: { type: 'array', maxItems: INSTANT_LIMITS.conditionsMax } },
  description: 'react-querybuilder RuleGroupType JSON: { combinator, not?, rules: [{ field, operator, value } | group] }',
});

export const InstantRuleBody = Type.Object({
  name: Type.String({ maxLength: INSTANT_LIMITS.nameMax }),
  kinds: Type.Array(StringEnum(CERTIFICATE_TYPES), { maxItems: CERTIFICATE_TYPES.length, uniqueItems: true }),
  conditions: RuleConditions,
  checkEvery: Type.Optional(Type.Integer({ minimum: 0, maximum: INSTANT_LIMITS.checkEveryMax, description: 'one in N issued goes to Check after issue (0: none)' })),
  dailyCap: Type.Optional(Type.Integer({ minimum: 0, maximum: INSTANT_LIMITS.dailyCapMax, description: 'at most this many a day (office time)' })),
}, { additionalProperties: false });
export type InstantRuleBody = Static<typeof InstantRuleBody>;

export const UpdateInstantRuleBody = Type.Object({
  ...InstantRuleBody.properties,
  version: Type.Integer({ minimum: 1, description: 'the version the editor started from: a rule saved meanwhile answers 409' }),
}, { additionalProperties: false });
export type UpdateInstantRuleBody = Static<typeof UpdateInstantRuleBody>;

export const SwitchBody = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false });

export const InstantRuleRecord = Type.Object({
  id: Id, name: Type.String(), kinds: Type.Array(Type.String()), conditions: RuleConditions,
  checkEvery: Type.Integer(), dailyCap: Type.Integer(), enabled: Type.Boolean(), version: Type.Integer(),
  problem: Nullable(Type.String({ description: 'why the rule was switched off by itself (it could not be evaluated)' })),
  updatedAt: Timestamp, updatedBy: Nullable(Type.String()),
  issuedToday: Type.Integer(), issuedTotal: Type.Integer(),
});
export type InstantRuleRecord = Static<typeof InstantRuleRecord>;

export const InstantRuleVersionRecord = Type.Object({
  version: Type.Integer(), name: Type.String(), kinds: Type.Array(Type.String()), conditions: RuleConditions,
  checkEvery: Type.Integer(), dailyCap: Type.Integer(), savedAt: Timestamp, savedBy: Nullable(Type.String()),
});
export type InstantRuleVersionRecord = Static<typeof InstantRuleVersionRecord>;

export const InstantSettingsRecord = Type.Object({ enabled: Type.Boolean(), updatedAt: Timestamp, updatedBy: Nullable(Type.String()) });
export type InstantSettingsRecord = Static<typeof InstantSettingsRecord>;

export const InstantRuleList = Type.Object({ settings: InstantSettingsRecord, data: Type.Array(InstantRuleRecord) });

export const InstantDecisionRecord = Type.Object({
  id: Id, requestId: Id, decidedAt: Timestamp, outcome: StringEnum(['issued', 'stopped'] as const),
  ruleId: Nullable(Type.Integer()), ruleName: Nullable(Type.String()), ruleVersion: Nullable(Type.Integer()),
  stoppedBy: Nullable(Type.String({ description: 'the condition or guard that stopped it, in words' })),
  checkRequired: Type.Boolean(), checkedAt: NullableTimestamp, checkedBy: Nullable(Type.String()),
});
export type InstantDecisionRecord = Static<typeof InstantDecisionRecord>;

export const InstantCheckRow = Type.Object({
  ...InstantDecisionRecord.properties,
  requestNumber: Nullable(Type.Integer()), certificateType: Nullable(Type.String()), requesterName: Nullable(Type.String()),
  certificateHolder: Nullable(Type.String()), status: Type.String(),
});
export type InstantCheckRow = Static<typeof InstantCheckRow>;
export const InstantCheckPage = Type.Object({ total: Type.Integer(), limit: Type.Integer(), skip: Type.Integer(), data: Type.Array(InstantCheckRow) });
export const PageQuery = Type.Object({
  $limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })), $skip: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
});

export const HoldBody = Type.Object({
  hold: Type.Boolean(), reason: Type.Optional(Type.String({ maxLength: 500 })),
}, { additionalProperties: false });
export const HoldRecord = Type.Object({ userId: Id, onHold: Type.Boolean(), since: NullableTimestamp, reason: Nullable(Type.String()) });
export const HeldRequester = Type.Object({ userId: Id, name: Type.String(), email: Type.String(), since: Timestamp, reason: Nullable(Type.String()) });
export const HeldRequesterList = Type.Object({ data: Type.Array(HeldRequester) });

// ---- the simulator
export const SimulateBody = Type.Object({
  kinds: InstantRuleBody.properties.kinds,
  conditions: RuleConditions,
  dailyCap: Type.Optional(InstantRuleBody.properties.dailyCap),
}, { additionalProperties: false });
export type SimulateBody = Static<typeof SimulateBody>;

export const SimulatedDifference = Type.Object({
  requestId: Id, requestNumber: Nullable(Type.Integer()), certificateType: Nullable(Type.String()), status: Type.String(),
  differedBy: StringEnum(['denied', 'pended', 'changed'] as const, { description: 'denied; pended for more information; the office changed the holder or dates' }),
  detail: Type.String(),
});
export const SimulationResult = Type.Object({
  from: Timestamp, to: Timestamp,
  /** submitted requests of the kinds in the window */
  considered: Type.Integer(),
  wouldIssue: Type.Integer(),
  byKindMonth: Type.Array(Type.Object({ kind: Type.String(), month: Type.String({ description: 'yyyy-mm, office time' }), count: Type.Integer() })),
  medianSavedHours: Nullable(Type.Number({ description: 'median submit → decision time of the requests it would have issued' })),
  differedTotal: Type.Integer(),
  /** the first 100, newest first */
  differed: Type.Array(SimulatedDifference),
  tookMs: Type.Integer(),
});
export type SimulationResult = Static<typeof SimulationResult>;
