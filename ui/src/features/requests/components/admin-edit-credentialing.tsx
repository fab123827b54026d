import { useMachine } from '@xstate/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { hasErrors, LICENSING_REASON, type CredentialingForm as FormValues } from '../../../../../domain';
import { validateCredentialingForm } from '../../../../../domain/request-rules';
import { isStaleRequest, StaleRequestAlert } from '../../../components/stale-request-alert';
import { Alert } from '../../../components/ui/alert';
import { ApiError } from '../../../lib/api-client';
import { commandRequest } from '../../../lib/request-api';
import { submissionMachine } from '../../../lib/submission.machine';
import { UI_TEXT } from '../../../lib/ui-text';
import type { RequestRecord } from '../../../types/api';
import { formToPayload, recordToForm } from '../lib/credentialing-payload';
import { ClinicianSection } from './clinician-section';
import type { FormErrors } from './form-section';
import { RecipientSection } from './recipient-section';
import { RequestInformationSection } from './request-information-section';
import { officeToday } from '../../../lib/office';

interface AdminEditCredentialingProps {
  request: RequestRecord;
  onSaved: (updated: RequestRecord) => void;
  onCancel: () => void;
}

/**
 * Admin Edit in place (spec 1 §2): the credentialing fields with Save and Cancel, checked with the requester's
 * rules (the server checks them again and writes one audit row naming the fields that changed).
 */
export function AdminEditCredentialing({ request, onSaved, onCancel }: AdminEditCredentialingProps) {
  const [form, setForm] = useState<FormValues>(() => recordToForm(request));
  const [clientErrors, setClientErrors] = useState<FormErrors>({});
  const [serverErrors, setServerErrors] = useState<FormErrors>({});
  const [attempted, setAttempted] = useState(false);
  const [save, send] = useMachine(submissionMachine);
  const formElement = useRef<HTMLFormElement>(null);
  const isExternal = request.employerType === 'external';
  const validate = (values: FormValues) => validateCredentialingForm(values as Record<string, string>, {
    isExternal, today: officeToday(), documentCount: request.documents?.length ?? 0,
  });

  useEffect(() => { formElement.current?.querySelector<HTMLElement>('input')?.focus(); }, []);

  function change(field: keyof FormValues, value: string) {
    const next = { ...form, [field]: value, ...(field === 'reason' && value !== LICENSING_REASON ? { licensingState: '' } : {}) };
    setForm(next);
    // After a refused Save, messages follow the corrections.
    if (attempted) setClientErrors(validate(next));
    setServerErrors(({ [field]: _cleared, ...rest }) => rest);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const errors = validate(form);
    setAttempted(true);
    setClientErrors(errors);
    setServerErrors({});
    if (hasErrors(errors)) {
      formElement.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    send({
      type: 'SUBMIT',
      run: async () => {
        try {
          onSaved(await commandRequest(request.id, formToPayload(form, 'update'), request.version));
        } catch (error) {
          if (error instanceof ApiError && error.hasFieldErrors) setServerErrors(error.errors);
          throw error;
        }
      },
    });
  }

  const busy = save.matches('submitting');
  const failure = save.matches('error') ? save.context.error : null;
  const errors: FormErrors = { ...serverErrors, ...clientErrors };
  const section = { form, errors, onChange: change, disabled: busy };
  return (
    <form ref={formElement} className="request-form" onSubmit={submit} noValidate aria-label="Edit request">
      {failure && (isStaleRequest(failure) ? <StaleRequestAlert />
        : <Alert kind="error">{failure.hasFieldErrors ? UI_TEXT.fixFields : failure.message}</Alert>)}
      {!failure && hasErrors(errors) && <Alert kind="error">{UI_TEXT.fixFields}</Alert>}
      <ClinicianSection {...section} birthDateRequired={isExternal} />
      <RequestInformationSection {...section} />
      <RecipientSection {...section} />
      <div className="form-actions">
        <p className="muted" role="status">{busy ? UI_TEXT.saving : ''}</p>
        <div className="button-row">
          <button type="button" className="button button--secondary" onClick={onCancel} disabled={busy}>Cancel</button>
          <button type="submit" className="button" disabled={busy}>Save</button>
        </div>
      </div>
    </form>
  );
}
