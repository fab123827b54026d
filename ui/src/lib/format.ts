import { formatUsDate } from '../../../domain';

/** Display a date as MM/dd/yyyy (spec 2 §9.1), or a dash when absent. */
export const displayDate = (iso: string | null | undefined): string => (iso ? formatUsDate(iso) : '—');

/** Local date and time of a timestamp: MM/dd/yyyy h:mm AM. */
export function displayDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const day = `${pad(date.getMonth() + 1)}/${pad(date.getDate())}/${date.getFullYear()}`;
  const time = date.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
  return `${day} ${time}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** "Last, First M." or a dash. */
export function personName(person: { lastName?: string | null; firstName?: string | null; middleInitial?: string | null }): string {
  const first = [person.firstName, person.middleInitial ? `${person.middleInitial}.` : ''].filter(Boolean).join(' ');
  const name = [person.lastName, first].filter(Boolean).join(', ');
  return name || '—';
}
