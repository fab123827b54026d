/**
 * The person a certificate names, as internal requesters (and administrators on their requests) handle it: found in
 * the directory (person search) or typed in the person modal (add/edit), never typed on the form itself (spec 1 §2
 * "Internal users pick persons by search"; "Modals: person search/add/edit").
 */
import type { RequestFormValues, RequestKindDefinition } from '../../../../../domain';

/** The person's role on this request: the one chosen (Employee or Supervisor on auto liability), else the kind's. */
export const roleOf = (kind: RequestKindDefinition, values: RequestFormValues): string =>
  (typeof values.personRole === 'string' && values.personRole) || kind.personRole || 'Person';

interface PersonButtonsProps {
  role: string;
  hasPerson: boolean;
  disabled?: boolean;
  onSearch: () => void;
  onEdit: () => void;
}

export function PersonButtons({ role, hasPerson, disabled, onSearch, onEdit }: PersonButtonsProps) {
  return (
    <div className="button-row">
      <button type="button" className="button button--secondary" onClick={onSearch} disabled={disabled}>
        {hasPerson ? `Change ${role}` : `Add ${role}`}
      </button>
      {hasPerson && (
        <button type="button" className="button button--secondary" onClick={onEdit} disabled={disabled}>{`Edit ${role}`}</button>
      )}
      <span className="field__hint">Search the directory by employee id, email, or name; Add New when the person is not there.</span>
    </div>
  );
}
