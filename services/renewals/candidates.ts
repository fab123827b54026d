/**
 * The Renewals page's list: every current certificate whose coverage ends inside the window, judged by the rules of
 * domain/renewals.ts (renew, or why not), with the period it would be renewed for and whether a policy year on
 * record covers it. PostgreSQL finds the certificates by the day their coverage ends (an index); the rules run here,
 * on those rows only.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/kysely';
import {
  certificateSubtypeLabel, dayOf, defaultRenewalWindow, formatVerificationCode, officeToday, policyYearLabel, renewalCoverageError, renewalPeriod, renewalVerdict,
  RENEWAL_MESSAGES, type RenewalPreference,
} from '../../domain';
import { invalid } from '../refusals';

/** Rows the page shows at most (the counts cover all of them; a run takes all renewable ones). */
export const CANDIDATES_SHOWN = 2_000;

export interface CandidateFilter { policyYearId?: number; from?: string; to?: string; q?: string; certificateType?: string }

interface Row {
  request_id: number; request_number: number; certificate_type: string | null; auto_type: string | null; contract_lease_type: string | null;
  lease_expiration_date: Date | null; vehicle_decommissioned: boolean | null; vehicle_transferred: boolean | null;
  date_from: Date | null; date_to: Date | null; event_start_date: Date | null; event_end_date: Date | null;
  rental_start_date: Date | null; rental_end_date: Date | null; renewal_preference: RenewalPreference | null;
  certificate_holder: string | null; requester_name: string | null; requester_email: string | null; requester_company: string | null;
  letter_id: number; verification_code: string; coverage_ends_on: string; renewed: boolean;
}

interface Year { id: number; startDate: Date; endDate: Date }

/** A certificate as it stands: issued, neither superseded nor revoked (the partial index of Migration20261204100001). */
const CURRENT_CERTIFICATE = sql`c.letter_kind = 'certificate' and c.issued_at is not null and c.superseded_at is null and c.revoked_at is null`;
const yearRecord = (y: Year) => ({ id: y.id, label: policyYearLabel(y), startDate: dayOf(y.startDate)!, endDate: dayOf(y.endDate)! });

export type Verdict = 'renew' | 'notRenewing' | 'doesNotFit' | 'renewed';
export interface Candidate {
  requestId: number; requestNumber: number; certificateType: string; subtypeLabel: string; holder: string; requester: string; requesterEmail: string;
  verificationCode: string; coverageEndsOn: string; newPeriod: { from: string; to: string }; preference: RenewalPreference | null;
  verdict: Verdict; reason: string; letterId: number;
}

/** The target year, the window and every candidate in it, judged; `filter.q` and the subtype narrow what is listed. */
export async function renewalCandidates(db: Kysely<Database>, filter: CandidateFilter, timeZone: string, now = Date.now()) {
  const years = (await db.selectFrom('policies').select(['id', 'start_date as startDate', 'end_date as endDate']).orderBy('start_date').execute()) as Year[];
  const today = officeToday(timeZone, now);
  const offered = years.filter((y) => dayOf(y.endDate)! >= today);
  const target = filter.policyYearId !== undefined
    ? years.find((y) => y.id === filter.policyYearId) ?? null
    : years.find((y) => dayOf(y.startDate)! > today) ?? null;
  if (filter.policyYearId !== undefined && !target) throw invalid('This policy year does not exist.', { policyYearId: 'This policy year does not exist.' });
  const summary = { renew: 0, notRenewing: 0, doesNotFit: 0, renewed: 0 };
  if (!target) return { years: offered.map(yearRecord), policyYear: null, window: null, refusal: RENEWAL_MESSAGES.noNextYear, summary, data: [] as Candidate[], truncated: false, all: [] as Candidate[] };

  const window = { ...defaultRenewalWindow(target.startDate), ...(filter.from ? { from: filter.from } : {}), ...(filter.to ? { to: filter.to } : {}) };
  if (window.from > window.to) throw invalid('The window must start before it ends.', { from: 'The window must start before it ends.' });
  if (window.to >= dayOf(target.endDate)!) throw invalid(RENEWAL_MESSAGES.yearNotAfter, { policyYearId: RENEWAL_MESSAGES.yearNotAfter });
  const { rows } = await sql<Row>`
    select r.id as request_id, r.request_number, r.certificate_type, r.auto_type, r.contract_lease_type, r.lease_expiration_date,
      r.vehicle_decommissioned, r.vehicle_transferred, r.date_from, r.date_to, r.event_start_date, r.event_end_date,
      r.rental_start_date, r.rental_end_date, r.renewal_preference, r.certificate_holder, r.requester_name, r.requester_email,
      r.requester_company, l.id as letter_id, l.verification_code, l.coverage_ends_on::text as coverage_ends_on,
      exists (select 1 from request_renewals rr where rr.request_id = r.id and rr.policy_year_id = ${target.id}) as renewed
    from issued_letters l join requests r on r.id = l.request_id
    where l.id in (
        -- the current certificates ending in the window, and those already renewed for the year (now the new one)
        select c.id from issued_letters c where ${CURRENT_CERTIFICATE} and c.coverage_ends_on between ${window.from}::date and ${window.to}::date
        union
        select c.id from request_renewals rr join issued_letters c on c.request_id = rr.request_id and ${CURRENT_CERTIFICATE}
        where rr.policy_year_id = ${target.id})
      and r.request_type = 'certificate' and r.status = 'Approved'
    order by lower(coalesce(r.certificate_holder, '')), lower(coalesce(r.requester_email, '')), r.request_number`.execute(db);

  const all = rows.map((row) => judge(row, target, years));
  const q = filter.q?.trim().toLowerCase();
  const listed = all.filter((c) => (!filter.certificateType || c.certificateType === filter.certificateType)
    && (!q || [c.holder, c.requester, c.requesterEmail, String(c.requestNumber)].some((v) => v.toLowerCase().includes(q))));
  for (const c of listed) summary[c.verdict] += 1;
  return {
    years: offered.map(yearRecord), policyYear: yearRecord(target), window, refusal: null, summary,
    data: listed.slice(0, CANDIDATES_SHOWN), truncated: listed.length > CANDIDATES_SHOWN, all,
  };
}

function judge(row: Row, target: Year, years: Year[]): Candidate {
  const facts = {
    certificateType: row.certificate_type, autoType: row.auto_type, contractLeaseType: row.contract_lease_type,
    leaseExpirationDate: row.lease_expiration_date, vehicleDecommissioned: row.vehicle_decommissioned, vehicleTransferred: row.vehicle_transferred,
    dateFrom: row.date_from, dateTo: row.date_to, eventStartDate: row.event_start_date, eventEndDate: row.event_end_date,
    rentalStartDate: row.rental_start_date, rentalEndDate: row.rental_end_date, renewalPreference: row.renewal_preference,
  };
  const newPeriod = renewalPeriod(facts, target);
  const verdict = renewalVerdict(facts, row.coverage_ends_on);
  const uncovered = verdict.renew ? renewalCoverageError(newPeriod, years) : null;
  const base = {
    requestId: row.request_id, requestNumber: row.request_number, certificateType: row.certificate_type ?? '',
    subtypeLabel: certificateSubtypeLabel(row.certificate_type, row.auto_type),
    holder: row.certificate_holder ?? '', requester: [row.requester_name, row.requester_company ? `(${row.requester_company})` : ''].filter(Boolean).join(' '),
    requesterEmail: row.requester_email ?? '', verificationCode: formatVerificationCode(row.verification_code), coverageEndsOn: row.coverage_ends_on,
    newPeriod, preference: row.renewal_preference, letterId: row.letter_id,
  };
  if (row.renewed) return { ...base, verdict: 'renewed', reason: RENEWAL_MESSAGES.alreadyRenewed(policyYearLabel(target)) };
  if (!verdict.renew) return { ...base, verdict: 'notRenewing', reason: verdict.reason };
  if (uncovered) return { ...base, verdict: 'doesNotFit', reason: uncovered };
  return { ...base, verdict: 'renew', reason: verdict.reason };
}
