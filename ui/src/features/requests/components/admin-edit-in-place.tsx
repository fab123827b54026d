import { useEffect, useRef, useState, type FormEvent } from 'react';
import {
  hasErrors, isShown, personSectionOf, replacedPersonValues, requestKindOf, type RequestFormValues,
} from '../../../../../domain';
import { validateRequestForm } from '../../../../../domain/request-rules';
import { isStaleRequest, StaleRequestAlert } from '../../../components/stale-request-alert';
import { Alert } from '../../../components/ui/alert';
import { ApiError } from '../../../lib/api-client';
import { officeToday } from '../../../lib/office';
import { useRequestCommand } from '../../../lib/request-api';
import { UI_TEXT } from '../../../lib/ui-text';
import type { RequestRecord } from '../../../types/api';
import { recordToValues, valuesToPayload } from '../lib/form-values';
import { DefinitionFields } from './definition-fields';
import type { FormErrors } from './form-section';
import { PersonEditDialog, type PersonEditMode } from './person-edit-dialog';
import { pickedPersonValues, PersonSearchDialog } from './person-search-dialog';
import { PersonButtons, roleOf } from './person-section';

interface AdminEditInPlaceProps {
  request: RequestRecord;
  /** After Save (the page's copy of the request already carries the answer). */
  onSaved: () => void;
  onCancel: () => void;
}

/**
 * Admin Edit in place (spec 1 §2) for any kind rendered from its definition (domain/request-kinds.ts): the kind's
 * sections without the requester's notes or the type selector, Save and Cancel, and nothing saved until Save (no
 * autosave: every save of a submitted request is an audited administrator's edit). The server checks the same
 * rules again and writes one "Field Edit" row naming the fields that changed.
 */
export function AdminEditInPlace({ request, onSaved, onCancel }: AdminEditInPlaceProps) {
  const kind = requestKindOf(request.requestType, request.certificateType);
  // The conditions follow the requester's kind of account (as the server's check does), not the administrator's.
  const ctx = { isExternal: request.employerType === 'external', isAdmin: true };
  const [values, setValues] = useState<RequestFormValues>(() => recordToValues(request, kind));
  const [clientErrors, setClientErrors] = useState<FormErrors>({});
  const [serverErrors, setServerErrors] = useState<FormErrors>({});
  const [attempted, setAttempted] = useState(false);
  const [searching, setSearching] = useState(false);
  const [editingPerson, setEditingPerson] = useState<PersonEditMode | null>(null);
  // Internal requests name a directory person (picked, as on the requester's form); external requesters type theirs.
  const personSection = personSectionOf(kind);
  const picksPerson = !!personSection && !ctx.isExternal;
  const save = useRequestCommand(request.id);
  // The version the administrator started from: a change made meanwhile elsewhere is refused (409), not overwritten.
  const [version] = useState(request.version);
  const formElement = useRef<HTMLFormElement>(null);
  const validate = (next: RequestFormValues) => validateRequestForm(kind, next, {
    isExternal: ctx.isExternal, today: officeToday(), documentCount: request.documents?.length ?? 0,
  });

  useEffect(() => { formElement.current?.querySelector<HTMLElement>('input, select, textarea')?.focus(); }, []);

  function changeMany(changed: RequestFormValues) {
    const next = { ...values, ...changed };
    setValues(next);
    // After a refused Save, messages follow the corrections.
    if (attempted) setClientErrors(validate(next));
    setServerErrors((prev) => Object.fromEntries(Object.entries(prev).filter(([field]) => !(field in changed))));
  }
  const change = (field: string, value: string | boolean) => changeMany({ [field]: value });

  function submit(event: FormEvent) {
    event.preventDefault();
    const errors = validate(values);
    setAttempted(true);
    setClientErrors(errors);
    setServerErrors({});
    if (hasErrors(errors)) {
      formElement.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    save.mutate({ changes: valuesToPayload(values, kind, 'update', ctx), version }, {
      onSuccess: onSaved,
      onError: (error) => { if (error instanceof ApiError && error.hasFieldErrors) setServerErrors(error.errors); },
    });
  }

  const busy = save.isPending;
  const failure = save.error;
  const errors: FormErrors = { ...serverErrors, ...clientErrors };
  return (
    <>
    <form ref={formElement} className="request-form" onSubmit={submit} noValidate aria-label="Edit request">
      {failure && (isStaleRequest(failure) ? <StaleRequestAlert />
        : <Alert kind="error">{failure.hasFieldErrors ? UI_TEXT.fixFields : failure.message}</Alert>)}
      {!failure && hasErrors(errors) && <Alert kind="error">{UI_TEXT.fixFields}</Alert>}
      {kind.sections.filter((section) => section.fields.some((f) => isShown(f, values, ctx))).map((section) => {
        const isPerson = picksPerson && section === personSection;
        return (
          <fieldset key={section.title} className="form-section">
            <legend className="form-section__title">{section.title}</legend>
            {isPerson && (
              <PersonButtons role={roleOf(kind, values)} hasPerson={!!(values.lastName || values.firstName)} disabled={busy}
                onSearch={() => setSearching(true)} onEdit={() => setEditingPerson('edit')} />
            )}
            <div className="form-grid">
              <DefinitionFields fields={section.fields} values={values} errors={errors} ctx={ctx} onChange={change} disabled={busy}
                onChangeFields={changeMany} periods={kind.periods}
                readOnly={isPerson ? new Set(section.fields.map((f) => f.name)) : undefined} />
            </div>
          </fieldset>
        );
      })}
      <div className="form-actions">
        <p className="muted" role="status">{busy ? UI_TEXT.saving : ''}</p>
        <div className="button-row">
          <button type="button" className="button button--secondary" onClick={onCancel} disabled={busy}>Cancel</button>
          <button type="submit" className="button" disabled={busy}>Save</button>
        </div>
      </div>
    </form>
      {/* Outside the edit form: the person search is a form of its own. */}
      {picksPerson && (
        <>
          <PersonSearchDialog open={searching} role={roleOf(kind, values)} onClose={() => setSearching(false)}
            onApply={(person) => { setSearching(false); changeMany(pickedPersonValues(kind, person)); }}
            onAddNew={() => { setSearching(false); setEditingPerson('add'); }} />
          <PersonEditDialog mode={editingPerson} kind={kind} fields={personSection.fields} isExternal={ctx.isExternal}
            values={editingPerson === 'add' ? { ...values, ...replacedPersonValues(kind) } : values}
            onClose={() => setEditingPerson(null)}
            onSave={(person) => { setEditingPerson(null); changeMany(person); }} />
        </>
      )}
    </>
  );
}
