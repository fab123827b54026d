import { formatOfficeDate, formatOfficeDateTime } from '../../../domain';
import { officeTimeZone } from './office';

/** A date as MM/dd/yyyy (spec 2 §9.1), the office's day of it (not the browser's, not UTC's); '' when absent. */
export const officeDate = (iso: string | null | undefined): string => formatOfficeDate(iso, officeTimeZone());

/** A date as MM/dd/yyyy in the office's time zone, or a dash when absent. */
export const displayDate = (iso: string | null | undefined): string => officeDate(iso) || '—';

/** Date and time on the office's clock: MM/dd/yyyy h:mm AM, or a dash when absent. */
export const displayDateTime = (iso: string | null | undefined): string => formatOfficeDateTime(iso, officeTimeZone()) || '—';

/** "Last, First M." or a dash. */
export function personName(person: { lastName?: string | null; firstName?: string | null; middleInitial?: string | null }): string {
  const first = [person.firstName, person.middleInitial ? `${person.middleInitial}.` : ''].filter(Boolean).join(' ');
  const name = [person.lastName, first].filter(Boolean).join(', ');
  return name || '—';
}
