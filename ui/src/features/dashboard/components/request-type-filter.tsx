import { REQUEST_TYPE_FILTERS } from '../../../../../domain';
import { UI_TEXT } from '../../../lib/ui-text';

interface RequestTypeFilterProps {
  value: string;
  onChange: (value: string) => void;
}

/** "Filter By Request Type"; the empty value shows every type. */
export function RequestTypeFilter({ value, onChange }: RequestTypeFilterProps) {
  return (
    <div className="field field--inline">
      <label htmlFor="request-type-filter" className="field__label">Filter By Request Type</label>
      <select id="request-type-filter" name="requestTypeFilter" className="field__control" value={value}
        onChange={(event) => onChange(event.target.value)}>
        <option value="">{UI_TEXT.allRequestTypes}</option>
        {REQUEST_TYPE_FILTERS.map((label) => <option key={label} value={label}>{label}</option>)}
      </select>
    </div>
  );
}
