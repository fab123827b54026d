/**
 * Dates as the office reads them: the same assertions with the process in UTC and in Pacific
 * time, at 23:30 in the office, when the UTC day is already the next one. Going back to a UTC day (or to the
 * process's own zone) fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  coveredPeriod, DEFAULT_OFFICE_TIME_ZONE, formatOfficeDate, formatOfficeDateTime, officeDay, officeDayAfter, officeDayStart,
  officePeriodStarts, officeToday, policyYearsCovering,
} from '../../domain';

const OFFICE = DEFAULT_OFFICE_TIME_ZONE;
/** 23:30 on Wednesday January 14, 2026 in Portland (PST, UTC−8): already January 15 in UTC. */
const WINTER_NIGHT = '2026-01-15T07:30:00.000Z';
/** 23:30 on Tuesday June 30, 2026 in Portland (PDT, UTC−7): the last evening of a policy year, July 1 in UTC. */
const LAST_EVENING_OF_POLICY_YEAR = '2026-07-01T06:30:00.000Z';

const policyYear = (start: number) => ({
  startDate: `${start}-07-01T11:00:00.000Z`, endDate: `${start + 1}-06-30T11:00:00.000Z`, policyNumber: `P-${start}`, limitClaim: '1000000', annualAggregate: '3000000',
});

describe.each(['UTC', 'America/Los_Angeles', 'Asia/Tokyo'])('with the process in %s', (processZone) => {
  const before = process.env.TZ;
  beforeAll(() => { process.env.TZ = processZone; });
  afterAll(() => { process.env.TZ = before; });

  it('the process really runs in that zone (the rest would prove nothing otherwise)', () => {
    const offset = new Date(WINTER_NIGHT).getTimezoneOffset();
    expect(offset).toBe({ UTC: 0, 'America/Los_Angeles': 480, 'Asia/Tokyo': -540 }[processZone]);
  });

  it('shows an instant as the office\'s day and clock, not the UTC day', () => {
    expect(formatOfficeDate(WINTER_NIGHT, OFFICE)).toBe('01/14/2026');
    expect(formatOfficeDate(new Date(WINTER_NIGHT), OFFICE)).toBe('01/14/2026');
    expect(formatOfficeDate(Date.parse(WINTER_NIGHT), OFFICE)).toBe('01/14/2026');
    expect(formatOfficeDateTime(WINTER_NIGHT, OFFICE)).toBe('01/14/2026 11:30 PM');
    expect(formatOfficeDate(LAST_EVENING_OF_POLICY_YEAR, OFFICE)).toBe('06/30/2026');
    expect(officeDay(WINTER_NIGHT, OFFICE)).toBe('2026-01-14');
  });

  it('shows calendar days (11:00 UTC of the day, or yyyy-mm-dd) as that same day', () => {
    expect(formatOfficeDate('2026-01-15T11:00:00.000Z', OFFICE)).toBe('01/15/2026');
    expect(formatOfficeDate('2026-01-15', OFFICE)).toBe('01/15/2026');
    expect(formatOfficeDate('2026-01-15T11:00:00.000Z', 'Asia/Tokyo')).toBe('01/15/2026');
    expect(formatOfficeDate('2026-01-15T11:00:00.000Z', 'Pacific/Honolulu')).toBe('01/15/2026');
  });

  it('answers nothing for nothing, and for what is not a date', () => {
    expect(formatOfficeDate(null, OFFICE)).toBe('');
    expect(formatOfficeDate('', OFFICE)).toBe('');
    expect(formatOfficeDate('not a date', OFFICE)).toBe('');
    expect(formatOfficeDateTime(undefined, OFFICE)).toBe('');
  });

  it('knows which day it is in the office, and where the office\'s days begin', () => {
    expect(officeToday(OFFICE, Date.parse(WINTER_NIGHT))).toBe('2026-01-14');
    expect(officeDayStart('2026-01-14', OFFICE).toISOString()).toBe('2026-01-14T08:00:00.000Z');
    expect(officeDayAfter('2026-01-14', OFFICE).toISOString()).toBe('2026-01-15T08:00:00.000Z');
    expect(officeDayStart('2026-06-30', OFFICE).toISOString()).toBe('2026-06-30T07:00:00.000Z');
    // The night the clocks go back (November 1, 2026) is 25 hours long.
    expect(officeDayAfter('2026-11-01', OFFICE).getTime() - officeDayStart('2026-11-01', OFFICE).getTime()).toBe(25 * 3_600_000);
    expect(officePeriodStarts(OFFICE, Date.parse(WINTER_NIGHT))).toEqual({ today: '2026-01-14', month: '2026-01-01', year: '2026-01-01' });
    expect(officePeriodStarts(OFFICE, Date.parse('2027-01-01T07:30:00.000Z'))).toEqual({ today: '2026-12-31', month: '2026-12-01', year: '2026-01-01' });
  });

  it('chooses the policy year in force on the office\'s issue day (June 30 after 17:00 stays in the old year)', () => {
    const issued = officeDay(LAST_EVENING_OF_POLICY_YEAR, OFFICE)!;
    const period = coveredPeriod({ requestType: 'certificate', certificateType: 'Property' }, issued);
    expect(period).toEqual({ from: '2026-06-30', to: '2026-06-30' });
    expect(policyYearsCovering([policyYear(2025), policyYear(2026)], period.from, period.to).map((y) => y.policyNumber)).toEqual(['P-2025']);
  });
});
