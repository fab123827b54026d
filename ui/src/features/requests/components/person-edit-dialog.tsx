/**
 * The person add/edit modal (spec 1 §2 "Modals: person search/add/edit"): the request's copy of the person it names,
 * with the fields of the kind's person section (domain/request-kinds.ts) and, where the kind offers more than one,
 * the person's role (Supervisor on auto liability). Save checks the kind's own rules for these fields and puts the
 * values on the form; nothing is written to the directory, and the request is saved as any form change is.
 */
import { useState, type FormEvent } from 'react';
import { personFormKind, type FieldDefinition, type RequestFormValues, type RequestKindDefinition } from '../../../../../domain';
import { validateRequestForm } from '../../../../../domain/request-rules';
import { Modal } from '../../../components/ui/modal';
import { officeToday } from '../../../lib/office';
import { DefinitionFields } from './definition-fields';
import type { FormErrors } from './form-section';

export type PersonEditMode = 'add' | 'edit';

interface PersonEditDialogProps {
  mode: PersonEditMode | null;
  kind: RequestKindDefinition;
  /** the person section's fields */
  fields: readonly FieldDefinition[];
  values: RequestFormValues;
  isExternal: boolean;
  onSave: (person: RequestFormValues) => void;
  onClose: () => void;
}

export function PersonEditDialog({ mode, kind, fields, values, isExternal, onSave, onClose }: PersonEditDialogProps) {
  const role = (values.personRole as string | undefined) || kind.personRole || 'Person';
  return (
    <Modal open={mode !== null} title={`${mode === 'add' ? 'Add' : 'Edit'} ${role}`} onClose={onClose} wide>
      {mode && <PersonEditForm kind={kind} fields={fields} values={values} isExternal={isExternal} onSave={onSave} onClose={onClose} />}
    </Modal>
  );
}

// The modal's controls carry their own names: the same fields are also shown (read-only) on the form behind it.
const PREFIX = 'person-edit-';

function PersonEditForm({ kind, fields, values, isExternal, onSave, onClose }: Omit<PersonEditDialogProps, 'mode'>) {
  const own = fields.map((f) => ({ ...f, name: `${PREFIX}${f.name}` }));
  const [draft, setDraft] = useState<RequestFormValues>(() => Object.fromEntries(fields.map((f) => [`${PREFIX}${f.name}`, values[f.name]])));
  const [errors, setErrors] = useState<FormErrors>({});
  const person = (): RequestFormValues => Object.fromEntries(fields.map((f) => [f.name, draft[`${PREFIX}${f.name}`] ?? '']));
  const ctx = { isExternal, isAdmin: false };

  function save(event: FormEvent) {
    event.preventDefault();
    // The kind's rules on the whole form with this person (its dates in the person forms' words); only this modal's
    // fields are answered here.
    const all = validateRequestForm(personFormKind(kind), { ...values, ...person() }, { isExternal, today: officeToday(), documentCount: 1 });
    const mine = Object.fromEntries(fields.filter((f) => all[f.name]).map((f) => [`${PREFIX}${f.name}`, all[f.name]]));
    setErrors(mine);
    if (Object.keys(mine).length === 0) onSave(person());
  }

  return (
    <form onSubmit={save} noValidate aria-label="Person details">
      <div className="form-grid">
        <DefinitionFields fields={own} values={draft} errors={errors} ctx={ctx}
          readOnly={draft[`${PREFIX}employeeId`] ? new Set([`${PREFIX}employeeId`]) : undefined}
          onChange={(name, value) => {
            setDraft((prev) => ({ ...prev, [name]: value }));
            setErrors(({ [name]: _cleared, ...rest }) => rest);
          }} />
      </div>
      <div className="button-row">
        <button type="submit" className="button">Save</button>
        <button type="button" className="button button--secondary" onClick={onClose}>Cancel</button>
      </div>
    </form>
  );
}
