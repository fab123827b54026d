/**
 * The office's daily digest of what its instant-certificate rules issued: one email to the office's mailbox a day,
 * for the office day before (office time zone), listing every certificate a rule issued and how many each rule issued.
 * A day with none sends nothing. The digest of a day goes out once, however often the day is run (its key).
 */
import { addDays } from './business-calendar';
import { officeDay } from './office-time';

/** The office day a digest run at `at` reports on: the day before, in the office's zone. */
export const instantDigestDayOf = (at: number, timeZone: string): string => addDays(officeDay(at, timeZone)!, -1);

/** The key that makes a day's digest go out once (instant_digests.key), and the root of its Message-ID. */
export const instantDigestKey = (day: string): string => `instant-digest:${day}`;

/** `yyyy-mm-dd` as the office writes dates: MM/dd/yyyy. */
const usDay = (day: string) => `${day.slice(5, 7)}/${day.slice(8, 10)}/${day.slice(0, 4)}`;

export const instantDigestSubject = (day: string, issued: number): string =>
  `Instant certificates issued on ${usDay(day)}: ${issued}`;

/** One certificate a rule issued, as the digest lists it. */
export interface InstantDigestRow {
  requestNumber: number | null;
  kind: string;
  holder: string | null;
  ruleId: number | null;
  ruleName: string;
  ruleVersion: number;
  /** MM/dd/yyyy h:mm AM, office time */
  issuedAt: string;
}

/**
 * How many certificates each rule issued, most first: a rule counts once whatever versions of it applied that day
 * (named as its last version of the day called itself, with every version listed).
 */
export function instantDigestRuleCounts(rows: readonly InstantDigestRow[]): Array<{ ruleName: string; versions: string; issued: number }> {
  const byRule = new Map<string, { ruleName: string; versions: Set<number>; issued: number }>();
  for (const row of rows) {
    const key = row.ruleId === null ? `name:${row.ruleName}` : `id:${row.ruleId}`;
    const entry = byRule.get(key) ?? { ruleName: row.ruleName, versions: new Set<number>(), issued: 0 };
    entry.ruleName = row.ruleName; // rows come in issue order: the last name wins
    entry.versions.add(row.ruleVersion);
    entry.issued += 1;
    byRule.set(key, entry);
  }
  return [...byRule.values()]
    .map((e) => ({ ruleName: e.ruleName, versions: [...e.versions].sort((a, b) => a - b).map((v) => `v${v}`).join(', '), issued: e.issued }))
    .sort((a, b) => b.issued - a.issued || a.ruleName.localeCompare(b.ruleName));
}
