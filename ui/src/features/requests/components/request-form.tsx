import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  STATUS, isShown, personSectionOf, replacedPersonValues, type RequestFormValues, type RequestKindDefinition,
} from '../../../../../domain';
import { validateRequestForm } from '../../../../../domain/request-rules';
import { DeleteRequestButton } from '../../../components/delete-request-button';
import { isStaleRequest, StaleRequestAlert } from '../../../components/stale-request-alert';
import { Alert } from '../../../components/ui/alert';
import { paths } from '../../../lib/paths';
import { isDeletable } from '../../../lib/request-labels';
import { UI_TEXT } from '../../../lib/ui-text';
import type { DocumentRecord, RequestRecord, User } from '../../../types/api';
import { useRequestDraft } from '../hooks/use-request-draft';
import { recordToValues, valuesToPayload } from '../lib/form-values';
import { DefinitionFields } from './definition-fields';
import { SubmitSuccessDialog, submittedId, submittedNumber, type FollowUp } from './submit-success-dialog';
import { FormActions } from './form-actions';
import type { FormErrors } from './form-section';
import { PersonFillingSection } from './person-filling-section';
import { PersonEditDialog, type PersonEditMode } from './person-edit-dialog';
import { pickedPersonValues, PersonSearchDialog, type DirectoryPerson } from './person-search-dialog';
import { PersonButtons, roleOf } from './person-section';
import { SupportingDocumentsSection } from './supporting-documents-section';
import { officeToday } from '../../../lib/office';

interface RequestFormProps {
  kind: RequestKindDefinition;
  /** what the first save creates besides the form: `requestType`, and `certificateType` for a certificate */
  createBody: { requestType: 'credentialing' | 'certificate'; certificateType?: string };
  record: RequestRecord | null;
  user: User;
  /** values to start a new draft with (a clone, or a follow-up from another request) */
  initialValues?: RequestRecord | Readonly<Record<string, unknown>> | null;
  cloneOf?: number | null;
  onCreated: (record: RequestRecord) => void;
  /** the follow-up question the submit-success modal asks for these values (spec 1 §1), when one applies */
  followUpOf?: (values: RequestFormValues) => FollowUp | null;
}

/**
 * The form of any request kind (the claim history request and every certificate subtype), rendered from the kind's
 * definition (domain/request-kinds.ts) and validated with the same rules the server applies at submit. Autosaved as a
 * draft (750 ms). Administrators edit submitted requests in place on the view page (admin-edit-in-place.tsx).
 */
export function RequestForm({ kind, createBody, record, user, initialValues, cloneOf, onCreated, followUpOf }: RequestFormProps) {
  const navigate = useNavigate();
  const ctx = useMemo(() => ({ isExternal: user.isExternal, isAdmin: user.isAdmin }), [user.isExternal, user.isAdmin]);
  const [values, setValues] = useState<RequestFormValues>(() => (record
    ? recordToValues(record, kind) : recordToValues(initialValues ?? null, kind, { startingNewDraft: true })));
  const [documents, setDocuments] = useState<DocumentRecord[]>(record?.documents ?? []);
  const [requestId, setRequestId] = useState<number | null>(record?.id ?? null);
  const [searching, setSearching] = useState(false);
  const [editingPerson, setEditingPerson] = useState<PersonEditMode | null>(null);
  const personSection = personSectionOf(kind);
  // Internal requesters name a directory person: picked by search, then corrected or added in the person modal.
  const picksPerson = !!personSection && !user.isExternal;
  const formElement = useRef<HTMLFormElement>(null);
  const valuesRef = useRef(values);
  valuesRef.current = values;

  // Autosave, Save Draft, Submit and the success modal: request-draft.machine.ts.
  const draft = useRequestDraft({
    initialId: record?.id ?? null,
    initialVersion: record?.version,
    payload: (mode) => valuesToPayload(valuesRef.current, kind, mode, ctx),
    createBody: () => ({ ...createBody, ...(cloneOf ? { cloneOf } : {}) }),
    onCreated: (created) => {
      setRequestId(created.id);
      onCreated(created);
    },
    onDone: () => navigate(paths.home.getHref(), { state: { tab: 'submitted' } }),
  });
  const { send, attempted, invalidTick } = draft;

  const validate = (v: RequestFormValues, documentCount: number) =>
    validateRequestForm(kind, v, { isExternal: user.isExternal, today: officeToday(), documentCount });

  // Once a submit was tried, the kind's messages follow every change.
  useEffect(() => {
    if (attempted) send({ type: 'REVALIDATE', errors: validate(values, documents.length) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [values, documents.length, attempted]);

  useEffect(() => {
    if (!invalidTick) return;
    const invalid = formElement.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    invalid?.scrollIntoView({ behavior: 'smooth', block: 'center' });
    invalid?.focus({ preventScroll: true });
  }, [invalidTick]);

  function changeMany(changed: RequestFormValues) {
    setValues((prev) => ({ ...prev, ...changed }));
    send({ type: 'EDIT', fields: Object.keys(changed) });
  }
  const change = (field: string, value: string | boolean) => changeMany({ [field]: value });

  function applyPerson(person: DirectoryPerson) {
    setSearching(false);
    changeMany(pickedPersonValues(kind, person));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    send({ type: 'SUBMIT', errors: validate(values, documents.length), followUp: followUpOf?.(values) ?? null });
  }

  const errors: FormErrors = draft.errors;
  const { submitting, failure } = draft;
  const deletable = requestId != null && isDeletable({ status: record?.status ?? STATUS.draft, submitDate: record?.submitDate ?? null });
  const fieldProps = { values, errors, ctx, onChange: change, onChangeFields: changeMany, periods: kind.periods, disabled: submitting };

  return (
    <>
    <form ref={formElement} className="request-form" onSubmit={submit} noValidate
      aria-label={createBody.requestType === 'certificate' ? `${kind.title} certificate request` : `${kind.title} request`}>
      {failure && (isStaleRequest(failure) ? <StaleRequestAlert />
        : <Alert kind="error">{failure.hasFieldErrors ? UI_TEXT.fixFields : failure.message}</Alert>)}
      {!failure && attempted && Object.values(errors).some(Boolean) && <Alert kind="error">{UI_TEXT.fixFields}</Alert>}
      {kind.sections.filter((section) => section.fields.some((f) => isShown(f, values, ctx))).map((section) => {
        const isPerson = picksPerson && section === personSection;
        return (
          <fieldset key={section.title} className="form-section">
            <legend className="form-section__title">{section.title}</legend>
            {section.note && !user.isAdmin && <p className="form-section__note">{section.note}</p>}
            {isPerson && (
              <PersonButtons role={roleOf(kind, values)} hasPerson={!!(values.lastName || values.firstName)} disabled={submitting}
                onSearch={() => setSearching(true)} onEdit={() => setEditingPerson('edit')} />
            )}
            <div className="form-grid">
              <DefinitionFields fields={section.fields} {...fieldProps}
                readOnly={isPerson ? new Set(section.fields.map((f) => f.name)) : undefined} />
            </div>
          </fieldset>
        );
      })}
      <SupportingDocumentsSection documents={documents} onDocumentsChange={setDocuments} explanation={kind.documents.hint}
        ensureRequestId={draft.ensureRequestId} error={errors.documents} disabled={submitting} isAdmin={user.isAdmin} />
      <PersonFillingSection user={user} />
      <FormActions
        saveState={draft.saveState}
        submitting={submitting}
        onSaveDraft={() => send({ type: 'SAVE_DRAFT' })}
        deleteButton={deletable && (
          <DeleteRequestButton requestId={requestId} label="Delete This Request" className="button button--danger-outline"
            onDeleted={() => {
              send({ type: 'CANCEL_AUTOSAVE' });
              navigate(paths.home.getHref(), { state: { tab: 'drafts' } });
            }} />
        )}
      />
    </form>
      {/* The dialogs sit outside the request form: the person search is a form of its own. */}
      {picksPerson && (
        <>
          <PersonSearchDialog open={searching} role={roleOf(kind, values)} onApply={applyPerson} onClose={() => setSearching(false)}
            onAddNew={() => {
              setSearching(false);
              setEditingPerson('add');
            }} />
          <PersonEditDialog mode={editingPerson} kind={kind} fields={personSection.fields} isExternal={user.isExternal}
            values={editingPerson === 'add' ? { ...values, ...replacedPersonValues(kind) } : values}
            onClose={() => setEditingPerson(null)}
            onSave={(person) => { setEditingPerson(null); changeMany(person); }} />
        </>
      )}
      <SubmitSuccessDialog open={!!draft.submitted} requestNumber={submittedNumber(draft.submitted)}
        requestId={createBody.requestType === 'certificate' ? submittedId(draft.submitted) : null} onClose={() => send({ type: 'CLOSE' })}
        followUp={draft.followUp} />
    </>
  );
}
