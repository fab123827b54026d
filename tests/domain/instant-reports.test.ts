/** The reports' words for certificates issued instantly (domain/reports.ts). */
import { describe, expect, it } from 'vitest';
import { CERTIFICATE_REPORT_KINDS, formatElapsed, instantIssuesReading, REPORT_KINDS } from '../../domain';

describe('certificates issued instantly, in the reports', () => {
  it('counts every certificate kind, not the claim-history letter', () => {
    expect(CERTIFICATE_REPORT_KINDS).toEqual(REPORT_KINDS.filter((k) => k !== 'Claim History and Insurance Verification'));
  });

  it('writes time elapsed in the unit that reads best', () => {
    expect(formatElapsed(1)).toBe('1 second');
    expect(formatElapsed(8.4)).toBe('8 seconds');
    expect(formatElapsed(89)).toBe('89 seconds');
    expect(formatElapsed(90)).toBe('2 minutes');
    expect(formatElapsed(89 * 60)).toBe('89 minutes');
    expect(formatElapsed(90 * 60)).toBe('1.5 hours');
    expect(formatElapsed(26.25 * 3600)).toBe('26.3 hours');
    expect(formatElapsed(36 * 3600)).toBe('1.5 days');
  });

  it('reads the share and both medians, or says there is nothing', () => {
    const none = { issued: 0, median: null, medianElapsedSeconds: null };
    expect(instantIssuesReading(0, none, none)).toBe('No certificate issued in this range');
    expect(instantIssuesReading(4, none, { issued: 4, median: 2.04, medianElapsedSeconds: 3 * 86_400 }))
      .toBe('0 of 4 certificates issued instantly (0 %); median turnaround by the office 2 business days (3 days)');
    expect(instantIssuesReading(3, { issued: 1, median: 0, medianElapsedSeconds: 6 }, { issued: 2, median: 1.25, medianElapsedSeconds: 7200 }))
      .toBe('1 of 3 certificates issued instantly (33 %); median turnaround instantly 0 business days (6 seconds), by the office 1.3 business days (2 hours)');
  });
});
