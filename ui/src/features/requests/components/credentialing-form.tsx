import { useMachine } from '@xstate/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  LICENSING_REASON, STATUS, dayToServerIso, hasErrors, parseUsDate, type CredentialingForm as FormValues,
} from '../../../../../domain';
import { validateCredentialingForm } from '../../../../../domain/request-rules';
import { DeleteRequestButton } from '../../../components/delete-request-button';
import { isStaleRequest, StaleRequestAlert } from '../../../components/stale-request-alert';
import { Alert } from '../../../components/ui/alert';
import { ApiError } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { isDeletable } from '../../../lib/request-labels';
import { commandRequest } from '../../../lib/request-api';
import { submissionMachine } from '../../../lib/submission.machine';
import { UI_TEXT } from '../../../lib/ui-text';
import type { DocumentRecord, RequestRecord, User } from '../../../types/api';
import { useRequestSaver } from '../hooks/use-request-saver';
import { formToPayload, recordToForm } from '../lib/credentialing-payload';
import { ClinicianSection } from './clinician-section';
import { SubmitSuccessDialog, submittedNumber } from './submit-success-dialog';
import { FormActions } from './form-actions';
import type { FormErrors } from './form-section';
import { PersonFillingSection } from './person-filling-section';
import { RecipientSection } from './recipient-section';
import { RequestInformationSection } from './request-information-section';
import { SupportingDocumentsSection } from './supporting-documents-section';
import { officeToday } from '../../../lib/office';

interface CredentialingFormProps {
  record: RequestRecord | null;
  user: User;
  onCreated: (record: RequestRecord) => void;
  /** Clone: the approved request whose form values a new draft starts with */
  cloneFrom?: RequestRecord | null;
}

/** Provider types of a current employee or student: their submit asks about a Clinician certificate (spec 1 §1). */
const CURRENT_PROVIDER_TYPES: readonly string[] = ['Current Employee/Fellow/Resident', 'Current Student'];

/**
 * The Claim History and Insurance Verification form: autosaved draft, client validation with the domain rules,
 * submission through the pending → submitting → success | error machine.
 */
export function CredentialingForm({ record, user, onCreated, cloneFrom }: CredentialingFormProps) {
  const navigate = useNavigate();
  const [form, setForm] = useState<FormValues>(() => recordToForm(record ?? cloneFrom ?? null));
  /** After a submit: the success modal, with the follow-up question when one applies (spec 1 §1). */
  const [succeeded, setSucceeded] = useState<{ followUp: boolean } | null>(null);
  const [documents, setDocuments] = useState<DocumentRecord[]>(record?.documents ?? []);
  const [requestId, setRequestId] = useState<number | null>(record?.id ?? null);
  const [clientErrors, setClientErrors] = useState<FormErrors>({});
  const [serverErrors, setServerErrors] = useState<FormErrors>({});
  const [attempted, setAttempted] = useState(false);
  const [scrollTick, setScrollTick] = useState(0);
  const formElement = useRef<HTMLFormElement>(null);
  const formRef = useRef(form);
  formRef.current = form;
  const [submission, send] = useMachine(submissionMachine);

  const saver = useRequestSaver({
    initialId: record?.id ?? null,
    initialVersion: record?.version,
    payload: (mode) => formToPayload(formRef.current, mode),
    createBody: () => ({ requestType: 'credentialing', ...(cloneFrom ? { cloneOf: cloneFrom.id } : {}) }),
    onCreated: (created) => {
      setRequestId(created.id);
      onCreated(created);
    },
  });

  const validate = (values: FormValues, documentCount: number) =>
    validateCredentialingForm(values as Record<string, string>, { isExternal: user.isExternal, today: officeToday(), documentCount });

  // After the first submit attempt, messages follow the user's corrections.
  useEffect(() => {
    if (attempted) setClientErrors(validate(form, documents.length));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [form, documents.length, attempted]);

  useEffect(() => {
    if (!scrollTick) return;
    const invalid = formElement.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    invalid?.scrollIntoView({ behavior: 'smooth', block: 'center' });
    invalid?.focus({ preventScroll: true });
  }, [scrollTick]);

  const goHome = () => navigate(paths.home.getHref(), { state: { tab: 'submitted' } });
  useEffect(() => {
    if (!submission.matches('success')) return;
    setSucceeded({ followUp: CURRENT_PROVIDER_TYPES.includes(formRef.current.providerType ?? '') });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [submission]);

  /** A Clinician certificate pre-filled from this request. */
  function startCertificate() {
    const f = formRef.current;
    const iso = (text?: string) => { const day = text ? parseUsDate(text) : null; return day ? dayToServerIso(day) : undefined; };
    navigate(paths.certificate.new.getHref(), {
      state: {
        certificateType: 'Clinician',
        prefill: {
          lastName: f.lastName, firstName: f.firstName, middleInitial: f.middleInitial, email: f.email,
          facilityName: f.facilityName, recipientEmail: f.recipientEmail, dateFrom: iso(f.dateFrom), dateTo: iso(f.dateTo),
        },
      },
    });
  }

  function change(field: keyof FormValues, value: string) {
    setForm((prev) => ({
      ...prev,
      [field]: value,
      ...(field === 'reason' && value !== LICENSING_REASON ? { licensingState: '' } : {}),
    }));
    setServerErrors(({ [field]: _cleared, ...rest }) => rest);
    saver.scheduleAutosave();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    saver.cancelAutosave();
    const errors = validate(form, documents.length);
    setAttempted(true);
    setClientErrors(errors);
    setServerErrors({});
    if (hasErrors(errors)) {
      setScrollTick((n) => n + 1);
      return;
    }
    send({
      type: 'SUBMIT',
      run: () => saver.enqueue(async (id) => {
        try {
          const submitted = await commandRequest(id, { ...formToPayload(formRef.current, 'update'), status: STATUS.submitted }, saver.version());
          saver.remember(submitted);
          return submitted;
        } catch (error) {
          if (error instanceof ApiError && error.hasFieldErrors) {
            setServerErrors(error.errors);
            setScrollTick((n) => n + 1);
          }
          throw error;
        }
      }),
    });
  }

  const errors: FormErrors = { ...serverErrors, ...clientErrors };
  const submitting = submission.matches('submitting');
  const failure = submission.matches('error') ? submission.context.error : null;
  const section = { form, errors, onChange: change, disabled: submitting };
  const deletable = requestId != null && isDeletable({ status: record?.status ?? STATUS.draft, submitDate: record?.submitDate ?? null });

  return (
    <form ref={formElement} className="request-form" onSubmit={submit} noValidate>
      {failure && (isStaleRequest(failure) ? <StaleRequestAlert />
        : <Alert kind="error">{failure.hasFieldErrors ? UI_TEXT.fixFields : failure.message}</Alert>)}
      {!failure && attempted && hasErrors(errors) && <Alert kind="error">{UI_TEXT.fixFields}</Alert>}
      <ClinicianSection {...section} birthDateRequired={user.isExternal} />
      <RequestInformationSection {...section} />
      <SupportingDocumentsSection documents={documents} onDocumentsChange={setDocuments}
        ensureRequestId={saver.ensureRequestId} error={errors.documents} disabled={submitting} isAdmin={user.isAdmin} />
      <RecipientSection {...section} />
      <PersonFillingSection user={user} />
      <SubmitSuccessDialog open={!!succeeded} requestNumber={submittedNumber(submission.context.result)} onClose={goHome}
        followUp={succeeded?.followUp ? {
          question: 'Do you also need a current Certificate of Insurance for this clinician?', yesLabel: 'Start a Clinician certificate', onYes: startCertificate,
        } : null} />
      <FormActions
        saveState={saver.saveState}
        submitting={submitting}
        onSaveDraft={() => void saver.saveDraft().catch(() => undefined)}
        deleteButton={deletable && (
          <DeleteRequestButton requestId={requestId} label="Delete This Request" className="button button--danger-outline"
            onDeleted={() => {
              saver.cancelAutosave();
              navigate(paths.home.getHref(), { state: { tab: 'drafts' } });
            }} />
        )}
      />
    </form>
  );
}
