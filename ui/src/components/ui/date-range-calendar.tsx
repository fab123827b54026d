/**
 * A month calendar that picks a range of days (spec 1 §4 "Date range picking: first click sets the start, second the
 * end"): the rule itself is domain/date-range-picking.ts; this draws it. Keyboard as in the WAI-ARIA date picker
 * pattern: one day in the tab order, arrows move by day and week, Page Up/Down by month (with Shift by year), Home/End
 * to the week's ends, Enter or Space picks. Days are `yyyy-mm-dd` calendar days: no time zone is involved.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import {
  addMonths, dayAfterKey, dayLabel, monthOf, monthTitle, monthWeeks, rangeAfterClick, WEEKDAY_NAMES, type DayRange,
} from '../../../../domain';

interface DateRangeCalendarProps {
  range: DayRange;
  onChange: (range: DayRange) => void;
  /** today's day in the office (marked, and the month shown when no day is picked) */
  today: string;
  /** an earlier second day swaps with the first (off: it becomes the new start) */
  swap?: boolean;
  /** days outside [min, max] cannot be picked */
  min?: string;
  max?: string;
}

export function DateRangeCalendar({ range, onChange, today, swap = false, min, max }: DateRangeCalendarProps) {
  const headingId = useId();
  const [focusDay, setFocusDay] = useState(() => range.start ?? range.end ?? today);
  const [month, setMonth] = useState(() => monthOf(focusDay));
  const grid = useRef<HTMLTableElement>(null);
  const moveFocus = useRef(false);

  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    grid.current?.querySelector<HTMLButtonElement>(`button[data-day="${focusDay}"]`)?.focus();
  }, [focusDay, month]);

  const outside = (day: string) => (min !== undefined && day < min) || (max !== undefined && day > max);
  const inRange = (day: string) => !!range.start && !!range.end && day >= range.start && day <= range.end;
  const role = (day: string) => (day === range.start ? 'start date' : day === range.end ? 'end date' : inRange(day) ? 'in range' : '');

  function showMonth(next: string) {
    setMonth(next);
    // keep one day of the shown month in the tab order
    if (monthOf(focusDay) !== next) setFocusDay(`${next}-01`);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTableElement>) {
    const next = dayAfterKey(focusDay, event.key, event.shiftKey);
    if (!next) return;
    event.preventDefault();
    moveFocus.current = true;
    setFocusDay(next);
    setMonth(monthOf(next));
  }

  // One day of the shown month takes Tab. Days that cannot be picked stay focusable (aria-disabled, as the WAI-ARIA
  // date picker does), so the arrows never lose the focus at the edge of [min, max].
  const days = monthWeeks(month).flat().filter((d): d is string => !!d);
  const tabDay = days.includes(focusDay) ? focusDay : days[0];

  const step = range.start && !range.end ? 'Now choose the end date.' : 'Choose the start date.';
  return (
    <div className="range-calendar">
      <div className="range-calendar__header">
        <button type="button" className="button button--secondary range-calendar__nav" aria-label="Previous month"
          onClick={() => showMonth(addMonths(month, -1))}>‹</button>
        <h3 id={headingId} className="range-calendar__title" aria-live="polite">{monthTitle(month)}</h3>
        <button type="button" className="button button--secondary range-calendar__nav" aria-label="Next month"
          onClick={() => showMonth(addMonths(month, 1))}>›</button>
      </div>
      <p className="field__hint" aria-live="polite">{step}</p>
      <table ref={grid} role="grid" className="range-calendar__grid" aria-labelledby={headingId} onKeyDown={onKeyDown}>
        <thead>
          <tr>{WEEKDAY_NAMES.map((name) => <th key={name} scope="col" abbr={name}>{name.slice(0, 2)}</th>)}</tr>
        </thead>
        <tbody>
          {monthWeeks(month).map((week, i) => (
            <tr key={i}>
              {week.map((day, j) => {
                if (!day) return <td key={j} role="gridcell" />;
                const what = role(day);
                return (
                  <td key={day} role="gridcell" aria-selected={what ? true : undefined}
                    className={`range-calendar__day${what ? ` range-calendar__day--${what.replace(' ', '-')}` : ''}${day === today ? ' range-calendar__day--today' : ''}`}>
                    <button type="button" data-day={day} tabIndex={day === tabDay ? 0 : -1} aria-disabled={outside(day) || undefined}
                      aria-label={`${dayLabel(day)}${what ? `, ${what}` : ''}`} aria-current={day === today ? 'date' : undefined}
                      onClick={() => {
                        setFocusDay(day);
                        if (!outside(day)) onChange(rangeAfterClick(range, day, swap));
                      }}>
                      {Number(day.slice(8, 10))}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
