/** The daily digest's day and its count per rule (domain/instant-digest.ts). */
import { describe, expect, it } from 'vitest';
import { instantDigestDayOf, instantDigestRuleCounts, instantDigestSubject, type InstantDigestRow } from '../../domain';

const row = (ruleId: number | null, ruleName: string, ruleVersion: number): InstantDigestRow =>
  ({ requestNumber: 1, kind: 'COI Request: Event', holder: null, ruleId, ruleName, ruleVersion, issuedAt: '' });

describe('the instant-certificate digest', () => {
  it('reports on the office day before the run, in the office zone', () => {
    // 07:00 in Portland on Mar 9 2026 (PDT, the day after DST starts) is 14:00 UTC: yesterday is Mar 8.
    expect(instantDigestDayOf(Date.parse('2026-03-09T14:00:00Z'), 'America/Los_Angeles')).toBe('2026-03-08');
    // 05:00 UTC on Jan 1 is still Dec 31 in Portland: yesterday is Dec 30.
    expect(instantDigestDayOf(Date.parse('2026-01-01T05:00:00Z'), 'America/Los_Angeles')).toBe('2025-12-30');
    expect(instantDigestDayOf(Date.parse('2026-01-01T05:00:00Z'), 'UTC')).toBe('2025-12-31');
  });

  it('counts per rule, whatever versions applied, most first, named as the rule last called itself', () => {
    expect(instantDigestRuleCounts([
      row(1, 'Events', 2), row(2, 'Rentals', 1), row(1, 'Events (no patient care)', 3), row(3, 'Leases', 1), row(2, 'Rentals', 1), row(1, 'Events (no patient care)', 3),
    ])).toEqual([
      { ruleName: 'Events (no patient care)', versions: 'v2, v3', issued: 3 },
      { ruleName: 'Rentals', versions: 'v1', issued: 2 },
      { ruleName: 'Leases', versions: 'v1', issued: 1 },
    ]);
    expect(instantDigestRuleCounts([])).toEqual([]);
  });

  it('says the day and the count in its subject', () => {
    expect(instantDigestSubject('2026-12-01', 4)).toBe('Instant certificates issued on 12/01/2026: 4');
  });
});
