/**
 * Times of day on a request period: an event's and a rental's start and end time. Spec 2 §9.1
 * sets the time picker's interval at 30 minutes, so a time is one of the 48 half hours of a day. It is a wall-clock
 * time of the period's own day (where the event or the rental happens), not an instant: it travels and is stored as
 * `HH:mm` (24-hour) and is shown as `h:mm AM`, never converted between zones.
 */

/** Spec 2 §9.1 "Time picker interval: 30 minutes". */
const TIME_STEP_MINUTES = 30;

/** `HH:mm` on a 30-minute step: 00:00, 00:30, … 23:30. */
export const TIME_OF_DAY_PATTERN = '^([01]\\d|2[0-3]):(00|30)$';

export const TIME_OF_DAY_MESSAGE = 'Please choose a time on the half hour';

/** `09:30` → `9:30 AM`; anything else is shown as it is. */
export function formatTimeOfDay(value: string): string {
  const match = /^(\d{2}):(\d{2})$/.exec(value);
  if (!match) return value;
  const hours = Number(match[1]);
  const suffix = hours < 12 ? 'AM' : 'PM';
  return `${hours % 12 === 0 ? 12 : hours % 12}:${match[2]} ${suffix}`;
}

/** Every time the picker offers, in order: `{ value: '13:30', label: '1:30 PM' }`. */
export const TIME_OF_DAY_OPTIONS: readonly { value: string; label: string }[] = Array.from(
  { length: (24 * 60) / TIME_STEP_MINUTES },
  (_, i) => {
    const minutes = i * TIME_STEP_MINUTES;
    const value = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
    return { value, label: formatTimeOfDay(value) };
  },
);
