/**
 * The office as the API serving this page was configured: its time zone (OFFICE_TIME_ZONE), phone
 * (RISK_MANAGEMENT_PHONE) and mailbox (RISK_MANAGEMENT_EMAIL). api/plugins/static-ui.ts writes them into index.html as
 * <meta name="office-…"> tags. Under the Vite dev server, or when a tag is missing, the defaults below. Every date the
 * UI shows goes through ui/src/lib/format.ts with this zone, never the browser's.
 */
import { DEFAULT_OFFICE_TIME_ZONE, officeToday as officeTodayIn } from '../../../domain';

const DEFAULTS = { 'office-time-zone': DEFAULT_OFFICE_TIME_ZONE, 'office-phone': '503-494-0000', 'office-email': 'riskmanagement@coi-portal.local' };
const read = new Map<string, string>();

function meta(name: keyof typeof DEFAULTS, valid: (value: string) => boolean = Boolean): string {
  const known = read.get(name);
  if (known) return known;
  const content = typeof document === 'undefined' ? null : document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;
  const value = content && valid(content) ? content : DEFAULTS[name];
  read.set(name, value);
  return value;
}

export const officeTimeZone = (): string => meta('office-time-zone', isKnownZone);
export const officePhone = (): string => meta('office-phone');
export const officeEmail = (): string => meta('office-email');

/** Today in the office (`yyyy-mm-dd`): the "today" of the form rules. */
export const officeToday = (): string => officeTodayIn(officeTimeZone());

function isKnownZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
