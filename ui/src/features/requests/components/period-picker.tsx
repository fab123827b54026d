/**
 * A kind's period (two date fields, domain/request-kinds.ts `periods`) picked on one calendar: the first click sets
 * the start field, the second the end field (spec 1 §4). The fields stay typeable (mm/dd/yyyy); the calendar opens
 * below its button, starts at the typed days, and shows only days the period's rule allows.
 */
import { useId, useRef, useState } from 'react';
import {
  EARLIEST_REQUEST_DAY, formatOfficeDate, parseUsDate, type DayRange, type PeriodRule, type RequestFormValues,
} from '../../../../../domain';
import { DateRangeCalendar } from '../../../components/ui/date-range-calendar';
import { officeTimeZone, officeToday } from '../../../lib/office';

interface PeriodPickerProps {
  period: PeriodRule;
  values: RequestFormValues;
  onChange: (changed: RequestFormValues) => void;
  disabled?: boolean;
}

const dayOf = (value: RequestFormValues[string]) => (typeof value === 'string' ? parseUsDate(value) : null);

export function PeriodPicker({ period, values, onChange, disabled }: PeriodPickerProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const today = officeToday();
  const range: DayRange = { start: dayOf(values[period.from]), end: dayOf(values[period.to]) };
  // The typed form is mm/dd/yyyy: a picked day is written as the office shows a date (domain/office-time.ts).
  const typed = (day: string | null) => (day ? formatOfficeDate(day, officeTimeZone()) : '');

  return (
    <div className="period-picker">
      <button ref={toggle} type="button" className="button button--secondary" aria-expanded={open} aria-controls={panelId}
        disabled={disabled} onClick={() => setOpen((o) => !o)}>
        {open ? 'Close the calendar' : 'Pick dates on a calendar'}
      </button>
      <div id={panelId} hidden={!open} className="period-picker__panel"
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return;
          // Escape closes the calendar, not a dialog around it
          event.stopPropagation();
          event.preventDefault();
          setOpen(false);
          toggle.current?.focus();
        }}>
        {open && (
          <DateRangeCalendar range={range} today={today}
            min={period.pastOnly ? EARLIEST_REQUEST_DAY : undefined} max={period.pastOnly ? today : undefined}
            onChange={(next) => onChange({ [period.from]: typed(next.start), [period.to]: typed(next.end) })} />
        )}
      </div>
    </div>
  );
}
