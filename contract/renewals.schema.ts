/**
 * Route schemas of renewal season (domain/renewals.ts): the certificates a new policy year would renew, a request's
 * renewal mark, the runs with their progress and control, and the requester's answer to "Do you still need this
 * certificate?" (public, by the token in the email).
 */
import { Type, type Static, type TSchema } from 'typebox';
import { CERTIFICATE_TYPES, RENEWAL_ANSWERS, RENEWAL_ITEM_STATES, RENEWAL_MODES, RENEWAL_PREFERENCES, RENEWAL_RUN_STATES } from '../domain';
import { Id, Nullable, NullableTimestamp, StringEnum, Timestamp } from './primitives';
import { Page } from './page.schema';

/** One of a list of strings, or null. */
const NullableEnum = <T extends string>(values: readonly T[]) => Type.Unsafe<T | null>({ type: ['string', 'null'], enum: [...values, null] } as TSchema);

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'a calendar day, yyyy-mm-dd' });

export const RenewalYear = Type.Object({ id: Id, label: Type.String({ description: '"2027–2028"' }), startDate: Day, endDate: Day });

export const CandidatesQuery = Type.Object({
  policyYearId: Type.Optional(Id),
  from: Type.Optional(Day),
  to: Type.Optional(Day),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'holder, requester, company or request number' })),
  certificateType: Type.Optional(StringEnum(CERTIFICATE_TYPES)),
}, { additionalProperties: false });
export type CandidatesQuery = Static<typeof CandidatesQuery>;

export const RenewalCandidate = Type.Object({
  requestId: Id,
  requestNumber: Type.Integer(),
  certificateType: Type.String(),
  subtypeLabel: Type.String(),
  holder: Type.String(),
  requester: Type.String({ description: 'the requester\'s name and company' }),
  requesterEmail: Type.String(),
  verificationCode: Type.String({ description: 'the current certificate\'s code, formatted' }),
  coverageEndsOn: Day,
  newPeriod: Type.Object({ from: Day, to: Day }),
  preference: NullableEnum(RENEWAL_PREFERENCES),
  /** renew: the rules renew it; notRenewing: the rules (or a mark) say its need ended; doesNotFit: no policy year covers its new period; renewed: already renewed for the year */
  verdict: StringEnum(['renew', 'notRenewing', 'doesNotFit', 'renewed'] as const),
  reason: Type.String(),
});

export const CandidatesResult = Type.Object({
  years: Type.Array(RenewalYear, { description: 'policy years a run may renew for (the current one and later)' }),
  policyYear: Nullable(Type.Object(RenewalYear.properties)),
  window: Nullable(Type.Object({ from: Day, to: Day })),
  /** why no run can start (no policy year after the current one), or null */
  refusal: Nullable(Type.String()),
  summary: Type.Object({ renew: Type.Integer(), notRenewing: Type.Integer(), doesNotFit: Type.Integer(), renewed: Type.Integer() }),
  /** sorted by holder, then requester, then request number; at most `limit` rows */
  data: Type.Array(RenewalCandidate),
  truncated: Type.Boolean(),
});

export const PreferenceBody = Type.Object({ preference: NullableEnum(RENEWAL_PREFERENCES) }, { additionalProperties: false });

export const StartRunBody = Type.Object({
  policyYearId: Id,
  mode: StringEnum(RENEWAL_MODES),
  from: Day,
  to: Day,
  answerBy: Type.Optional(Day),
  requestIds: Type.Optional(Type.Array(Id, { maxItems: 100_000, uniqueItems: true, description: 'only these of the renewable certificates (default: all of them)' })),
}, { additionalProperties: false });
export type StartRunBody = Static<typeof StartRunBody>;

export const RenewalProgress = Type.Object({
  total: Type.Integer(), done: Type.Integer(), waiting: Type.Integer(), failed: Type.Integer(), remaining: Type.Integer(),
  notRenewed: Type.Integer({ description: 'declined, unanswered, already renewed by another run, or cancelled' }),
  asked: Type.Integer({ description: 'ask-first: still waiting for the requester\'s answer' }),
  percent: Type.Integer({ minimum: 0, maximum: 100 }),
});

export const RenewalRun = Type.Object({
  id: Id,
  policyYear: RenewalYear,
  mode: StringEnum(RENEWAL_MODES),
  answerBy: Nullable(Day),
  window: Type.Object({ from: Day, to: Day }),
  state: StringEnum(RENEWAL_RUN_STATES),
  createdBy: Type.String(),
  createdAt: Timestamp,
  finishedAt: NullableTimestamp,
  progress: RenewalProgress,
});
export const RenewalRunList = Type.Object({ data: Type.Array(RenewalRun) });

export const RunControlParams = Type.Object({ id: Id, action: StringEnum(['pause', 'resume', 'cancel', 'close-asking'] as const) });

export const ItemsQuery = Type.Object({
  state: Type.Optional(StringEnum(RENEWAL_ITEM_STATES)),
  $limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 200 })),
  $skip: Type.Optional(Type.Integer({ minimum: 0 })),
}, { additionalProperties: false });

export const RenewalItem = Type.Object({
  id: Id, requestId: Id, requestNumber: Type.Integer(), holder: Type.String(), requester: Type.String(), reason: Type.String(),
  state: StringEnum(RENEWAL_ITEM_STATES),
  /** renewed items: sent (done), pending (waiting for its letter and email) or failed */
  delivery: NullableEnum(['pending', 'sent', 'failed'] as const),
  answer: NullableEnum(RENEWAL_ANSWERS),
  outcome: Nullable(Type.String()),
  updatedAt: Timestamp,
});
export const RenewalItemPage = Page(RenewalItem);

export const AnswerParams = Type.Object({ token: Type.String({ minLength: 20, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' }) });
export const AnswerBody = Type.Object({ answer: StringEnum(RENEWAL_ANSWERS) }, { additionalProperties: false });
export const RenewalQuestion = Type.Object({
  requestNumber: Type.Integer(),
  holder: Type.String(),
  subtypeLabel: Type.String(),
  policyYear: Type.String(),
  answerBy: Day,
  answer: NullableEnum(RENEWAL_ANSWERS),
  /** false once the office stopped waiting (the date passed, the run was closed or cancelled) */
  open: Type.Boolean(),
});
