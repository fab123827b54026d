/**
 * RENEWAL SEASON: which current certificates are reissued for a new policy year, and for what period. The one place
 * for these rules; the Renewals page, the run that starts from it and the request workflow's renew command all
 * read them here.
 *
 * A certificate is a candidate when it is current (issued, neither superseded nor revoked), its request is Approved,
 * and its coverage (the last policy year it shows) ends inside the window the office picks (by default: the month
 * before the new year starts, i.e. with the policy year before it). Its need plausibly continues when:
 * - it is marked "renews automatically" (always), and never when it is marked "never renew";
 * - Contracts/Lease: a lease whose expiration date is after the ending year's end; a contract (it has no end date);
 * - Auto Liability: a fleet vehicle neither decommissioned nor transferred; a rental whose end is after the year's end;
 * - Event: an event that ends after the year's end;
 * - Clinician and Provider: a standing certificate (its end date is after the year's end, or it has none);
 * - Property: a standing certificate (a building or equipment keeps needing cover).
 * The renewed certificate covers the new policy year; a request with its own dates (clinician, provider, event,
 * rental) covers the part of them inside that year. A run refuses what no policy year on record covers.
 */
import { RENTAL_AUTO_TYPE } from './reference-lists';
import { formatOfficeDate, DEFAULT_OFFICE_TIME_ZONE } from './office-time';
import { dayOf, periodCovered, type CoveredPeriodFields } from './policy-years';

export const RENEWAL_PREFERENCES = ['auto', 'never'] as const;
export type RenewalPreference = (typeof RENEWAL_PREFERENCES)[number];
export const RENEWAL_PREFERENCE_LABELS: Record<RenewalPreference, string> = { auto: 'Renews automatically', never: 'Never renew' };

/** How a run goes: renew at once, or first ask each requester "Do you still need this certificate?". */
export const RENEWAL_MODES = ['renew', 'ask'] as const;
export type RenewalMode = (typeof RENEWAL_MODES)[number];

/** A run's life: asking (ask-first, until the answer date), running, paused, then finished or cancelled. */
export const RENEWAL_RUN_STATES = ['asking', 'running', 'paused', 'finished', 'cancelled'] as const;
export type RenewalRunState = (typeof RENEWAL_RUN_STATES)[number];

/**
 * One certificate of a run: `asked` (waiting for the requester), `pending` (to renew), `renewed` (its new certificate
 * is queued; done once its email went out), `failed`, `declined` (the requester said no), `unanswered` (no answer by
 * the date), `skipped` (already renewed for the year, by another run), `cancelled` (the run was cancelled first).
 */
export const RENEWAL_ITEM_STATES = ['asked', 'pending', 'renewed', 'failed', 'declined', 'unanswered', 'skipped', 'cancelled'] as const;
export type RenewalItemState = (typeof RENEWAL_ITEM_STATES)[number];

export const RENEWAL_ANSWERS = ['yes', 'no'] as const;
export type RenewalAnswer = (typeof RENEWAL_ANSWERS)[number];

/** The texts of a renewal's audit rows (kind RENEWAL_ACTIVITY, domain/audit-kinds.ts). */
export const renewedForText = (yearLabel: string) => `Renewed for ${yearLabel}`;
export const renewalAnswerText = (answer: RenewalAnswer, yearLabel: string, channel: 'link' | 'reply') =>
  `The requester answered ${answer === 'yes' ? 'yes: still needed' : 'no: not needed'} for ${yearLabel} (${channel === 'link' ? 'by the link in the email' : 'by replying to the email'})`;
export const renewalAskedText = (yearLabel: string, answerBy: string) => `Asked whether the certificate is still needed for ${yearLabel} (answer by ${answerBy})`;

/** The templates a renewal sends (seeded beside the spec's twelve). */
export const CERTIFICATE_RENEWED_TEMPLATE = 'Certificate Renewed';
export const CERTIFICATE_RENEWED_TEMPLATE_ORDER = 70;
export const RENEWAL_QUESTION_TEMPLATE = 'Renewal Question';
export const RENEWAL_QUESTION_TEMPLATE_ORDER = 75;

export const RENEWAL_MESSAGES = {
  noNextYear: 'No policy year after the current one is on record. Add the new policy year under Manage > Policies before starting a renewal run.',
  yearNotAfter: 'Pick a policy year that starts after the certificates\' coverage ends.',
  nothingToRenew: 'No certificate in this selection can be renewed.',
  answerByRequired: 'Pick the date by which requesters must answer.',
  answerByPast: 'The answer date must be after today.',
  notRunning: 'This run is already finished.',
  answerClosed: 'This question is closed: the office no longer waits for an answer.',
  answerUnknown: 'This link is not valid. Please use the link in the most recent email, or contact the Risk Management Office.',
  alreadyRenewed: (yearLabel: string) => `Already renewed for ${yearLabel}.`,
  notApproved: 'Only an approved certificate can be renewed.',
  emailOnDemand: 'This email is sent by a renewal run, with what the run decided: it can be sent again only after it failed.',
  notCovered: (from: string, to: string) =>
    `No policy year on record covers ${formatOfficeDate(from, DEFAULT_OFFICE_TIME_ZONE)} – ${formatOfficeDate(to, DEFAULT_OFFICE_TIME_ZONE)}.`,
} as const;

/** "2027–2028": a policy year as people name it (July 1 2027 to June 30 2028). */
export function policyYearLabel(year: { startDate: Date | string; endDate: Date | string }): string {
  return `${dayOf(year.startDate)!.slice(0, 4)}–${dayOf(year.endDate)!.slice(0, 4)}`;
}


/** What the rules read of a request (its stored fields) and of its current certificate. */
export interface RenewalFacts extends Omit<CoveredPeriodFields, 'requestType' | 'certificateType'> {
  certificateType: string | null;
  contractLeaseType?: string | null;
  leaseExpirationDate?: Date | string | null;
  vehicleDecommissioned?: boolean | null;
  vehicleTransferred?: boolean | null;
  renewalPreference?: RenewalPreference | null;
}

export interface RenewalVerdict { renew: boolean; reason: string }

const usDay = (day: string) => formatOfficeDate(day, DEFAULT_OFFICE_TIME_ZONE);

/**
 * Whether the certificate's need plausibly continues past `yearEnd` (the last day of the policy year its coverage
 * ends with, yyyy-mm-dd), and why, in words an administrator reads on the Renewals page.
 */
export function renewalVerdict(r: RenewalFacts, yearEnd: string): RenewalVerdict {
  if (r.renewalPreference === 'never') return { renew: false, reason: 'Marked "never renew"' };
  const own = ownRule(r, yearEnd);
  if (r.renewalPreference === 'auto') return { renew: true, reason: own.renew ? `Marked "renews automatically"; ${lower(own.reason)}` : 'Marked "renews automatically"' };
  return own;
}

const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

function after(value: Date | string | null | undefined, yearEnd: string, runs: (day: string) => string, ended: (day: string) => string, missing: string): RenewalVerdict {
  const day = dayOf(value);
  if (!day) return { renew: false, reason: missing };
  return day > yearEnd ? { renew: true, reason: runs(usDay(day)) } : { renew: false, reason: ended(usDay(day)) };
}

function ownRule(r: RenewalFacts, yearEnd: string): RenewalVerdict {
  switch (r.certificateType) {
    case 'Contracts/Lease':
      if (r.contractLeaseType === 'Lease') {
        return after(r.leaseExpirationDate, yearEnd, (d) => `Lease runs to ${d}`, (d) => `Lease expires ${d}`, 'Lease with no expiration date on record');
      }
      return { renew: true, reason: 'Standing contract' };
    case 'Auto Liability':
      if (r.autoType === RENTAL_AUTO_TYPE) {
        return after(r.rentalEndDate, yearEnd, (d) => `Rental runs to ${d}`, (d) => `Rental ended ${d}`, 'Rental with no end date');
      }
      if (r.vehicleDecommissioned) return { renew: false, reason: 'Vehicle decommissioned' };
      if (r.vehicleTransferred) return { renew: false, reason: 'Vehicle transferred' };
      return { renew: true, reason: 'Fleet vehicle still in service' };
    case 'Event':
      return after(r.eventEndDate, yearEnd, (d) => `Event runs to ${d}`, (d) => `Event ended ${d}`, 'Event with no end date');
    case 'Clinician':
    case 'Provider': {
      const end = dayOf(r.dateTo);
      if (!end) return { renew: true, reason: `Standing ${r.certificateType.toLowerCase()} certificate` };
      return end > yearEnd
        ? { renew: true, reason: `Standing ${r.certificateType.toLowerCase()} certificate to ${usDay(end)}` }
        : { renew: false, reason: `Coverage dates ended ${usDay(end)}` };
    }
    case 'Property':
      return { renew: true, reason: 'Standing property certificate' };
    default:
      return { renew: false, reason: 'Not a certificate subtype that renews' };
  }
}

/** The request's own dates, for the subtypes that have them (clinician, provider, event, rental). */
function ownDates(r: RenewalFacts): { from: string | null; to: string | null } | null {
  if (r.certificateType === 'Clinician' || r.certificateType === 'Provider') return { from: dayOf(r.dateFrom), to: dayOf(r.dateTo) };
  if (r.certificateType === 'Event') return { from: dayOf(r.eventStartDate), to: dayOf(r.eventEndDate) };
  if (r.certificateType === 'Auto Liability' && r.autoType === RENTAL_AUTO_TYPE) return { from: dayOf(r.rentalStartDate), to: dayOf(r.rentalEndDate) };
  return null;
}

/** The period (yyyy-mm-dd) the renewed certificate covers: the new year, cut to the request's own dates. */
export function renewalPeriod(r: RenewalFacts, year: { startDate: Date | string; endDate: Date | string }): { from: string; to: string } {
  const start = dayOf(year.startDate)!;
  const end = dayOf(year.endDate)!;
  const own = ownDates(r);
  const from = own?.from && own.from > start ? own.from : start;
  const to = own?.to && own.to < end ? own.to : end;
  // Own dates wholly outside the year keep their own period: no year on record may cover it, and the run says so.
  if (to < from) return { from: own!.from ?? start, to: own!.to ?? end };
  return { from, to };
}

/** Why the new period cannot be renewed (no policy year covers it), or null when it can. */
export function renewalCoverageError(period: { from: string; to: string }, years: ReadonlyArray<{ startDate: Date | string; endDate: Date | string }>): string | null {
  return periodCovered(years, period.from, period.to) ? null : RENEWAL_MESSAGES.notCovered(period.from, period.to);
}

/**
 * The default window of a run for the new year: certificates whose coverage ends with the year before it, i.e.
 * within the 31 days up to the day before the new year starts (a certificate ends on the last day of its year).
 */
export function defaultRenewalWindow(newYearStart: Date | string): { from: string; to: string } {
  const start = Date.parse(`${dayOf(newYearStart)}T12:00:00Z`);
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { from: day(start - 31 * 86_400_000), to: day(start - 86_400_000) };
}

/** The progress of a run as people read it: done, waiting, failed, and what remains, out of the whole. */
export interface RenewalProgress { total: number; done: number; waiting: number; failed: number; remaining: number; notRenewed: number }

/** The share of a run that is behind it (done, failed, or not to be renewed), 0–100, for the progress bar. */
export const renewalPercent = (p: RenewalProgress): number =>
  p.total === 0 ? 100 : Math.floor((100 * (p.done + p.failed + p.notRenewed)) / p.total);

/** The run workflow of a recorded run: `renewal-run-<id>-<nonce>` (a restored database never meets an old run). */
export const renewalRunWorkflowId = (runId: number, nonce: string) => `renewal-run-${runId}-${nonce}`;
/** The request workflow's update id of a renewal: once per request and policy year, whichever run asks. */
export const renewCommandIdOf = (requestNumber: number, policyYearId: number) => `renew:${requestNumber}:py${policyYearId}`;
export const askRenewalCommandIdOf = (requestNumber: number, runId: number) => `ask-renewal:${requestNumber}:run${runId}`;

/** Replies that answer a renewal question: the first word of the reply's own text. */
export function answerOfReply(text: string): RenewalAnswer | null {
  const first = text.trim().split(/[\s.,!;:]+/)[0]?.toLowerCase() ?? '';
  if (['yes', 'y', 'renew'].includes(first)) return 'yes';
  if (['no', 'n'].includes(first)) return 'no';
  return null;
}

/** What the renewed certificate's email says (the template's `{{additionalInformation}}`). */
export function renewedNoticeText(v: { holder: string; yearLabel: string; from: string; to: string }): string {
  return `The certificate for ${v.holder || 'the certificate holder'} was renewed for the policy year ${v.yearLabel} `
    + `(coverage ${usDay(v.from)} – ${usDay(v.to)}). The new certificate is attached; the previous one is superseded, and its `
    + 'verification page now says so. Please give the holder the new certificate.';
}

/** What the renewal question's email says (the template's `{{additionalInformation}}`), with its two answer links. */
export function renewalQuestionText(v: { holder: string; subtypeLabel: string; yearLabel: string; answerBy: string; yesUrl: string; noUrl: string }): string {
  return `Do you still need this certificate? Your ${v.subtypeLabel} certificate for ${v.holder || 'the certificate holder'} ends with the current `
    + `policy year. If you still need it, we will reissue it for ${v.yearLabel}.\n\n`
    + `Yes, renew it: ${v.yesUrl}\nNo, I no longer need it: ${v.noUrl}\n\n`
    + `You may also reply to this email with "yes" or "no". Please answer by ${usDay(v.answerBy)}; without an answer by then the certificate is not renewed.`;
}

/** The answer page of a renewal question (the UI route; the token is the email's secret). */
export const renewalAnswerPath = (token: string) => `/renewal-answer/${token}`;
