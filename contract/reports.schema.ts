/**
 * `GET api/v1/reports` and `GET api/v1/reports.xlsx`: the administrators' reports (definitions in domain/reports.ts),
 * every figure computed by PostgreSQL from the audit trail and the request rows. Administrators only.
 */
import { Type, type Static } from 'typebox';
import {
  ALL_STATUSES, BACKLOG_AGE_BAND_KEYS, REPORT_KINDS, REPORT_PERIODS, WAITING_ON,
} from '../domain';
import { Nullable, StringEnum, Timestamp } from './primitives';
import type { ReportKind } from '../domain';

export const REPORTS_PATH = '/reports';
export const REPORTS_XLSX_PATH = '/reports.xlsx';

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'a day (YYYY-MM-DD) in the office time zone' });
const Kind = StringEnum(REPORT_KINDS);
const BusinessDays = Type.Number({ minimum: 0, description: 'business days (office hours of work days, holidays excluded), two decimals' });
const Count = Type.Integer({ minimum: 0 });
const PeriodStart = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'first office day of the week (Monday) or month' });

export const ReportsQuery = Type.Object({
  from: Day,
  to: Type.String({ ...Day, description: 'last day of the range, included (YYYY-MM-DD, office time zone)' }),
  kind: Type.Optional(StringEnum(REPORT_KINDS, { description: 'only requests of this kind (the dashboard\'s request type filter)' })),
  period: Type.Optional(StringEnum(REPORT_PERIODS, { description: 'week (ISO, Monday first) or month; month when not given' })),
}, { additionalProperties: false });
export type ReportsQuery = Static<typeof ReportsQuery>;

/** Certificates issued one way (by a rule, or by people) and their turnaround. */
const IssuedBy = (description: string) => Type.Object({
  issued: Count,
  median: Nullable(BusinessDays),
  medianElapsedSeconds: Nullable(Type.Number({ minimum: 0, description: 'first submission to approval, time elapsed (seconds)' })),
}, { description });

const Reading = Type.String({ description: 'one sentence a person reads the chart by, e.g. "median 2.1 business days, 90 % within 5"' });

export const Reports = Type.Object({
  filter: Type.Object({
    from: Day, to: Day, kind: Type.Unsafe<ReportKind | null>({ type: ['string', 'null'], enum: [...REPORT_KINDS, null] }), period: StringEnum(REPORT_PERIODS),
    timeZone: Type.String({ description: 'the office time zone the days are in' }),
    generatedAt: Timestamp,
  }),
  /** every period the range touches, in order (charts draw empty periods too) */
  periods: Type.Array(PeriodStart),
  /** the kinds the charts are split by (one when filtered) */
  kinds: Type.Array(Kind),
  volumes: Type.Object({
    rows: Type.Array(Type.Object({ period: PeriodStart, kind: Kind, received: Count, completed: Count }), {
      description: 'received: first submissions in the period; completed: requests that entered their final status in the period. Only non-zero rows.',
    }),
    received: Count,
    completed: Count,
    reading: Reading,
  }),
  turnaround: Type.Object({
    rows: Type.Array(Type.Object({ period: PeriodStart, kind: Kind, completed: Count, median: BusinessDays, p90: BusinessDays }), {
      description: 'business days from first submission to final status, of the requests completed in the period',
    }),
    byKind: Type.Array(Type.Object({ kind: Kind, completed: Count, median: BusinessDays, p90: BusinessDays }), { description: 'the whole range, per kind' }),
    completed: Count,
    median: Nullable(BusinessDays),
    p90: Nullable(BusinessDays),
    reading: Reading,
  }),
  timeInStatus: Type.Object({
    rows: Type.Array(Type.Object({
      status: StringEnum(ALL_STATUSES),
      waitingOn: StringEnum(WAITING_ON),
      businessDays: BusinessDays,
      requests: Type.Integer({ minimum: 0, description: 'requests that spent time in the status within the range' }),
      averageBusinessDays: BusinessDays,
    }), { description: 'business days spent in each status within the range (stays cut at the range\'s ends and at now), every timed status listed' }),
    office: BusinessDays,
    requester: BusinessDays,
    reading: Reading,
  }),
  backlog: Type.Object({
    asOf: Timestamp,
    rows: Type.Array(Type.Object({ band: StringEnum(BACKLOG_AGE_BAND_KEYS), status: StringEnum(ALL_STATUSES), count: Type.Integer({ minimum: 1 }) }), {
      description: 'open requests now (submitted, not finished; kind filter applies, date range does not) by age band (business days since first submission) and status; only non-zero rows',
    }),
    bands: Type.Array(Type.Object({ key: StringEnum(BACKLOG_AGE_BAND_KEYS), label: Type.String() })),
    open: Count,
    oldest: Type.Array(Type.Object({
      id: Type.Integer({ minimum: 1 }),
      requestNumber: Nullable(Type.Integer()),
      requestType: Type.String(),
      kind: Kind,
      status: StringEnum(ALL_STATUSES),
      firstSubmittedAt: Timestamp,
      ageBusinessDays: BusinessDays,
      requesterCompany: Nullable(Type.String()),
      viewPath: Type.String({ description: 'the request\'s page in the portal' }),
    }), { description: 'the oldest open requests, oldest first' }),
    reading: Reading,
  }),
  missedDeadlines: Type.Object({
    rows: Type.Array(Type.Object({ period: PeriodStart, reminders: Count, escalations: Count, autoClosed: Count }), {
      description: 'clock events that fired in the period: reminders to requesters, escalations to the office, automatic closes; only non-zero rows',
    }),
    reminders: Count,
    escalations: Count,
    autoClosed: Count,
    reading: Reading,
  }),
  topRequesters: Type.Object({
    companies: Type.Array(Type.Object({ name: Type.String(), requests: Count, completed: Count }), {
      description: 'external requesters\' companies by requests received in the range, most first',
    }),
    departments: Type.Array(Type.Object({ name: Type.String(), requests: Count, completed: Count }), {
      description: 'the university\'s departments (vehicle owning department, else the internal requester\'s unit) by requests received in the range',
    }),
    reading: Reading,
  }),
  instantIssues: Type.Object({
    certificates: Type.Integer({ minimum: 0, description: 'certificates completed as Approved in the range (kind filter applies)' }),
    rule: IssuedBy('issued by an instant-certificate rule'),
    office: IssuedBy('decided by people (the office)'),
    sharePercent: Type.Number({ minimum: 0, maximum: 100, description: 'the share a rule issued, one decimal' }),
    reading: Reading,
  }),
});
export type Reports = Static<typeof Reports>;
