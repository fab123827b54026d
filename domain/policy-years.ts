/** Policy years run July 1 to June 30 (spec 2 §9.2). */
export interface PolicyYearLimits {
  startDate: string; // ISO
  endDate: string;   // ISO
  policyNumber: string;
  limitClaim: string;      // money string
  annualAggregate: string; // money string
}

/** The policy years that overlap [from, to] (calendar days yyyy-mm-dd), oldest first. */
export function policyYearsCovering<T extends PolicyYearLimits>(years: T[], from: string, to: string): T[] {
  return years
    .filter((y) => y.startDate.slice(0, 10) <= to && y.endDate.slice(0, 10) >= from)
    .sort((a, b) => a.startDate.localeCompare(b.startDate));
}

/** "2565400" / "2,565,400.00" → "$2,565,400.00" (spec 2 §9.1: USD, 2 decimals). */
export function formatUsd(money: string | number): string {
  const value = typeof money === 'number' ? money : Number(String(money).replace(/[$,\s]/g, ''));
  return value.toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });
}
