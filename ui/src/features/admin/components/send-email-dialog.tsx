import { useState, type FormEvent } from 'react';
import { EMAIL_TEMPLATE_ORDER } from '../../../../../domain';
import { Alert } from '../../../components/ui/alert';
import { SelectField, TextField } from '../../../components/ui/form-field';
import { Modal } from '../../../components/ui/modal';
import { ApiError } from '../../../lib/api-client';
import type { RequestRecord } from '../../../types/api';
import { useSendEmail } from '../api/send-email';

const TITLES = EMAIL_TEMPLATE_ORDER.map(([title]) => title);

/**
 * Send Email (spec 2 §7.9): an administrator picks any of the twelve templates; the requester always receives it
 * first, then the additional recipients typed here (split on spaces, semicolons and commas). The request workflow
 * sends it and writes the audit row.
 */
export function SendEmailButton({ request }: { request: RequestRecord }) {
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  if (!request.submitDate) return null;
  return (
    <div className="button-row">
      <button type="button" className="button button--secondary" onClick={() => { setSent(null); setOpen(true); }}>Send Email</button>
      {sent && <span role="status">&quot;{sent}&quot; email queued.</span>}
      <Modal open={open} title="Send Email" onClose={() => setOpen(false)}>
        {open && <SendEmailForm request={request} onCancel={() => setOpen(false)}
          onSent={(title) => { setOpen(false); setSent(title); }} />}
      </Modal>
    </div>
  );
}

function SendEmailForm({ request, onSent, onCancel }: { request: RequestRecord; onSent: (title: string) => void; onCancel: () => void }) {
  const initial = [request.recipientEmail, (request as { addlRecipients?: string | null }).addlRecipients].filter(Boolean).join('; ');
  const [templateTitle, setTemplateTitle] = useState('');
  const [recipients, setRecipients] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const send = useSendEmail();
  const busy = send.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!templateTitle) { setErrors({ templateTitle: 'Choose an email template' }); return; }
    setErrors({});
    setFailure(null);
    send.mutate({ requestId: request.id, templateTitle, recipients }, {
      onSuccess: () => onSent(templateTitle),
      onError: (error) => {
        if (error instanceof ApiError && error.hasFieldErrors) setErrors(error.errors);
        else setFailure(error instanceof ApiError && error.code === 400 ? error.message : 'Oops, something went wrong. Please try again.');
      },
    });
  };

  return (
    <form className="discussion-form" onSubmit={submit} noValidate>
      {failure && <Alert kind="error">{failure}</Alert>}
      <SelectField name="templateTitle" label="Email Template" required options={TITLES} value={templateTitle} error={errors.templateTitle}
        onChange={(e) => setTemplateTitle(e.target.value)} />
      <p className="field__hint">The requester ({request.requesterEmail ?? 'no address'}) receives it first.</p>
      <TextField name="recipients" label="Additional Recipients" value={recipients} maxLength={1000} error={errors.recipients}
        hint="Separate addresses with spaces, semicolons or commas." onChange={(e) => setRecipients(e.target.value)} />
      <div className="button-row">
        <button type="submit" className="button" disabled={busy}>{busy ? 'Sending...' : 'Send'}</button>
        <button type="button" className="button button--secondary" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
