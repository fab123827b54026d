/**
 * The business calendar and the clock policy: when reminders, escalation, auto-close and the signed
 * release's expiry fall due, on the real calendar (weekends, office hours, holidays, DST) and compressed for tests.
 */
import { describe, expect, it } from 'vitest';
import {
  addBusinessDays, addDays, ALL_EMAIL_TEMPLATE_ORDER, businessMsBetween, DEFAULT_CLOCK_POLICY, isBusinessDay, zonedDay, EMAIL_TEMPLATE_ORDER, enterStatus, nextClock, releaseExpiresAt,
  signedReleaseDateError, STATUS, zonedInstant, type BusinessCalendar, type ClockPolicy, type ClockState,
} from '../../domain';
import { clockPolicySetting, ConfigError } from '../../config/app-config';

const office: BusinessCalendar = {
  timeZone: 'America/Los_Angeles', officeHours: { start: '08:00', end: '17:00' }, workDays: [1, 2, 3, 4, 5], holidays: ['2026-11-26', '2026-11-27'],
};
const at = (day: string, time: string) => zonedInstant(day, time, office.timeZone);
const iso = (ms: number) => new Date(ms).toISOString();

describe('business days', () => {
  it('counts office hours only: two business days after Friday 16:00 is Tuesday 16:00', () => {
    // 2026-11-13 is a Friday
    expect(iso(addBusinessDays(office, at('2026-11-13', '16:00'), 2))).toBe(iso(at('2026-11-17', '16:00')));
  });

  it('a request that arrives at night starts counting at the next opening', () => {
    expect(iso(addBusinessDays(office, at('2026-11-16', '22:30'), 1))).toBe(iso(at('2026-11-17', '17:00')));
  });

  it('skips holidays (Thanksgiving Thursday and Friday)', () => {
    // Wednesday 2026-11-25 09:00 + 1 business day: Thursday and Friday are holidays, the weekend too → Monday 09:00
    expect(iso(addBusinessDays(office, at('2026-11-25', '09:00'), 1))).toBe(iso(at('2026-11-30', '09:00')));
  });

  it('keeps office hours across the end of daylight saving time (local 08:00 stays 08:00)', () => {
    // DST ends Sunday 2026-11-01: Friday Oct 30 17:00 local is 00:00Z; Monday Nov 2 17:00 local is 01:00Z
    const due = addBusinessDays(office, at('2026-10-30', '17:00'), 1);
    expect(iso(due)).toBe('2026-11-03T01:00:00.000Z');
  });
});

describe('business time between two instants (what the reports measure)', () => {
  const hours = (n: number) => n * 3_600_000;

  it('counts the office hours between them: Friday 16:00 to Tuesday 16:00 is two business days', () => {
    expect(businessMsBetween(office, at('2026-11-13', '16:00'), at('2026-11-17', '16:00'))).toBe(hours(18));
    expect(businessMsBetween(office, at('2026-11-17', '16:00'), at('2026-11-13', '16:00'))).toBe(-hours(18));
  });

  it('leaves out nights, weekends and holidays, and keeps office hours across the end of daylight saving time', () => {
    expect(businessMsBetween(office, at('2026-11-16', '22:30'), at('2026-11-17', '07:00'))).toBe(0);
    expect(businessMsBetween(office, at('2026-11-25', '09:00'), at('2026-11-30', '09:00'))).toBe(hours(9));
    expect(businessMsBetween(office, at('2026-10-30', '17:00'), at('2026-11-02', '17:00'))).toBe(hours(9));
  });

  it('is what addBusinessDays counts: from an instant, its business time to a later one in office hours leads back to it', () => {
    let checked = 0;
    for (let i = 0; i < 300; i++) {
      // Instants from October 2026 to February 2027 (DST ends, Thanksgiving), every minute of the day for `from`.
      const from = at('2026-10-01', '00:00') + ((i * 7_919) % 90) * hours(24) + ((i * 104_729) % 1440) * 60_000;
      const toDay = addDays(zonedDay(from, office.timeZone), (i * 31) % 40);
      const to = at(toDay, '08:00') + ((i * 37) % 541) * 60_000; // 08:00 to 17:00
      if (to < from || !isBusinessDay(office, toDay)) continue;
      const ms = businessMsBetween(office, from, to);
      expect(iso(addBusinessDays(office, from, ms / hours(9))), `from ${iso(from)} to ${iso(to)}`).toBe(iso(to));
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });
});

const compressed: ClockPolicy = {
  ...DEFAULT_CLOCK_POLICY, compressedDayMs: 1000, reminderAfterBusinessDays: [2, 4], autoClose: { enabled: true, afterBusinessDays: 6 }, escalateAfterBusinessDays: 3,
};
const base: ClockState = {
  status: STATUS.pendingAdditionalInformation, statusSince: '2026-11-16T18:00:00.000Z', remindersSent: 0, escalated: false,
  signedReleaseDate: null, signedReleaseRecordedAt: null, releaseExpiryHandled: false,
};
const since = Date.parse(base.statusSince);

describe('the next clock', () => {
  it('in Pending Additional Information: first reminder after N, second after M, then auto-close', () => {
    expect(nextClock(compressed, 'credentialing', base)).toMatchObject({ kind: 'reminder-1', dueAt: since + 2000 });
    expect(nextClock(compressed, 'credentialing', { ...base, remindersSent: 1 })).toMatchObject({ kind: 'reminder-2', dueAt: since + 4000 });
    expect(nextClock(compressed, 'credentialing', { ...base, remindersSent: 2 })).toMatchObject({ kind: 'auto-close', dueAt: since + 6000 });
    const noClose = { ...compressed, autoClose: { enabled: false, afterBusinessDays: 6 } };
    expect(nextClock(noClose, 'credentialing', { ...base, remindersSent: 2 })).toBeNull();
  });

  it('Submitted and not reviewed: escalation after K; none once escalated; none while the request waits elsewhere', () => {
    const submitted = enterStatus(base, STATUS.submitted, base.statusSince);
    expect(nextClock(compressed, 'certificate', submitted)).toMatchObject({ kind: 'escalation', dueAt: since + 3000 });
    expect(nextClock(compressed, 'certificate', { ...submitted, escalated: true })).toBeNull();
    expect(nextClock(compressed, 'certificate', enterStatus(base, STATUS.pendingEmployment, base.statusSince))).toBeNull();
  });

  it('entering a status restarts its clock from zero (resubmission after Pending Additional Information)', () => {
    const resubmitted = enterStatus({ ...base, remindersSent: 2, escalated: true }, STATUS.submitted, '2026-11-20T18:00:00.000Z');
    expect(resubmitted).toMatchObject({ remindersSent: 0, escalated: false });
    expect(nextClock(compressed, 'credentialing', resubmitted)?.dueAt).toBe(Date.parse('2026-11-20T18:00:00.000Z') + 3000);
  });

  it('the signed release expires 180 days after its date (the start of day 181, office time), on open credentialing requests only', () => {
    const policy = DEFAULT_CLOCK_POLICY;
    expect(iso(releaseExpiresAt(policy, '2026-05-01', '2026-05-02T18:00:00.000Z'))).toBe(iso(at('2026-10-29', '00:00')));
    const withRelease = { ...enterStatus(base, STATUS.pendingEmployment, base.statusSince), signedReleaseDate: '2026-05-01', signedReleaseRecordedAt: '2026-05-02T18:00:00.000Z' };
    expect(nextClock(policy, 'credentialing', withRelease)?.kind).toBe('release-expiry');
    expect(nextClock(policy, 'certificate', withRelease)).toBeNull();
    expect(nextClock(policy, 'credentialing', { ...withRelease, status: STATUS.approved })).toBeNull();
    expect(nextClock(policy, 'credentialing', { ...withRelease, releaseExpiryHandled: true })).toBeNull();
  });

  it('compressed: a release dated 180 days before it was recorded expires after one (compressed) day', () => {
    const recorded = at('2026-11-16', '10:00');
    expect(releaseExpiresAt(compressed, '2026-05-20', iso(recorded))).toBe(recorded + 1000);
  });
});

describe('the signed release date an administrator enters', () => {
  it('must be a real day, not in the future, and within the last 180 days', () => {
    expect(signedReleaseDateError('2026-11-16', '2026-11-16')).toBeNull();
    expect(signedReleaseDateError('2026-05-20', '2026-11-16')).toBeNull();
    expect(signedReleaseDateError('2026-05-19', '2026-11-16')).toBe('The signed release must be dated within the last 180 days');
    expect(signedReleaseDateError('2026-11-17', '2026-11-16')).toBe('The signed release date cannot be in the future');
    expect(signedReleaseDateError('2026-02-30', '2026-11-16')).toBe('Date input not valid.');
  });
});

describe('templates and configuration', () => {
  it('the clocks\' templates come after the twelve of the spec, whose titles and orders are unchanged', () => {
    expect(ALL_EMAIL_TEMPLATE_ORDER.slice(0, 12)).toEqual(EMAIL_TEMPLATE_ORDER);
    expect(ALL_EMAIL_TEMPLATE_ORDER.slice(12)).toEqual([
      ['Reminder: Additional Information Needed', 45], ['Request Escalation', 50], ['Request Closed: No Response', 55],
    ]);
  });

  it('reads the policy from the environment and refuses nonsense', () => {
    const policy = clockPolicySetting({ REMINDER_BUSINESS_DAYS: '1,2', AUTO_CLOSE_BUSINESS_DAYS: 'off', ESCALATION_BUSINESS_DAYS: '1', CLOCK_DAY_SECONDS: '2' });
    expect(policy).toMatchObject({ reminderAfterBusinessDays: [1, 2], autoClose: { enabled: false }, escalateAfterBusinessDays: 1, compressedDayMs: 2000 });
    expect(clockPolicySetting({})).toEqual(DEFAULT_CLOCK_POLICY);
    expect(() => clockPolicySetting({ REMINDER_BUSINESS_DAYS: '5,3' })).toThrow(ConfigError);
    expect(() => clockPolicySetting({ OFFICE_HOURS: '17:00-08:00' })).toThrow(ConfigError);
  });
});
