import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { MESSAGES, WEBHOOK_EVENT_LABEL, WEBHOOK_EVENT_TYPES, WEBHOOK_MESSAGES, type WebhookEventType } from '../../../../domain';
import { Alert } from '../../components/ui/alert';
import { ConfirmButton } from '../../components/ui/confirm-button';
import { DataTable, type Column } from '../../components/ui/data-table';
import { TextField } from '../../components/ui/form-field';
import { Loading } from '../../components/ui/loading';
import { Pager } from '../../components/ui/pager';
import { isApiError } from '../../lib/api-error';
import { useAuth } from '../../lib/auth';
import { displayDateTime } from '../../lib/format';
import { queryKeys } from '../../lib/query-keys';
import { UI_TEXT } from '../../lib/ui-text';
import {
  DELIVERIES_PAGE_SIZE, getWebhookDeliveries, getWebhookEndpoints, useCreateWebhookEndpoint, useDeleteWebhookEndpoint, useResendWebhookDelivery,
  useRotateWebhookSecret, type WebhookDelivery, type WebhookEndpoint,
} from './webhooks-api';

const eventLabels = (events: readonly string[]) => events.map((e) => WEBHOOK_EVENT_LABEL[e as WebhookEventType] ?? e).join(', ');

function endpointState(e: WebhookEndpoint): string {
  if (e.disabledAt) return `Disabled ${displayDateTime(e.disabledAt)}`;
  if (e.failingSince) return `Failing since ${displayDateTime(e.failingSince)}`;
  return 'Active';
}

/** A secret shown once, after registering or rotating. */
function SecretNotice({ secret, note }: { secret: string; note: string }) {
  return (
    <Alert kind="success">
      <p>{note}</p>
      <p>Signing secret (copy it now: it is not shown again): <code className="secret">{secret}</code></p>
    </Alert>
  );
}

function NewEndpointForm({ onCreated }: { onCreated: (secret: string) => void }) {
  const create = useCreateWebhookEndpoint();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<ReadonlySet<WebhookEventType>>(new Set(WEBHOOK_EVENT_TYPES));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const toggle = (event: WebhookEventType) => setEvents((current) => {
    const next = new Set(current);
    if (!next.delete(event)) next.add(event);
    return next;
  });

  async function submit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    setFailure(null);
    if (!events.size) { setErrors({ events: WEBHOOK_MESSAGES.noEvents }); return; }
    try {
      const created = await create.mutateAsync({ url: url.trim(), events: [...events], ...(description.trim() ? { description: description.trim() } : {}) });
      setUrl('');
      setDescription('');
      onCreated(created.secret);
    } catch (error) {
      if (isApiError(error) && error.hasFieldErrors) setErrors(error.errors);
      else setFailure(isApiError(error) ? error.message : MESSAGES.genericPageError);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby="webhook-new-heading">
      <h2 id="webhook-new-heading">Add an endpoint</h2>
      <TextField name="url" label="URL" required type="url" value={url} onChange={(e) => setUrl(e.target.value)} error={errors.url}
        hint="An https:// address of your system that answers 2xx. Deliveries are signed (Standard Webhooks) with a secret shown once, when you add it." />
      <fieldset className="field webhook-events" aria-describedby={errors.events ? 'webhook-events-error' : undefined}>
        <legend className="field__label">Events</legend>
        {WEBHOOK_EVENT_TYPES.map((event) => (
          <label key={event} className="checkbox">
            <input type="checkbox" name="events" value={event} checked={events.has(event)} onChange={() => toggle(event)} /> {WEBHOOK_EVENT_LABEL[event]}
          </label>
        ))}
        {errors.events && <p id="webhook-events-error" className="error-text">{errors.events}</p>}
      </fieldset>
      <TextField name="description" label="Description" maxLength={200} value={description} onChange={(e) => setDescription(e.target.value)} error={errors.description} />
      {failure && <Alert kind="error">{failure}</Alert>}
      <div className="button-row">
        <button type="submit" className="button" disabled={create.isPending}>Add endpoint</button>
      </div>
    </form>
  );
}

function Deliveries({ endpoint, manage }: { endpoint: WebhookEndpoint; manage: boolean }) {
  const [skip, setSkip] = useState(0);
  const resend = useResendWebhookDelivery();
  const [notice, setNotice] = useState('');
  const deliveries = useQuery({
    queryKey: queryKeys.webhookDeliveries(endpoint.id, skip),
    queryFn: ({ signal }) => getWebhookDeliveries(endpoint.id, skip, signal),
  });
  const heading = `webhook-deliveries-${endpoint.id}`;

  async function sendAgain(delivery: WebhookDelivery) {
    setNotice('');
    try {
      await resend.mutateAsync(delivery);
      setNotice(`Delivery ${delivery.id} queued to be sent again.`);
    } catch {
      setNotice('It could not be queued: try again.');
    }
  }

  const columns: Column<WebhookDelivery>[] = [
    { header: 'Event', cell: (d) => WEBHOOK_EVENT_LABEL[d.eventType as WebhookEventType] ?? d.eventType },
    { header: 'Request', cell: (d) => d.requestNumber ?? `#${d.requestId}` },
    { header: 'Status', cell: (d) => d.status },
    { header: 'Attempts', cell: (d) => d.attempts },
    { header: 'Last answer', cell: (d) => d.lastError ?? (d.lastStatusCode ? `HTTP ${d.lastStatusCode}` : '—') },
    { header: 'Last attempt', cell: (d) => (d.lastAttemptAt ? displayDateTime(d.lastAttemptAt) : '—'), className: 'cell--nowrap' },
    ...(manage ? [{
      header: 'Action',
      cell: (d: WebhookDelivery) => (d.status === 'pending' ? null : (
        <button type="button" className="button button--small" disabled={resend.isPending} onClick={() => void sendAgain(d)}
          aria-label={`${UI_TEXT.sendAgain}: delivery ${d.id}`}>{UI_TEXT.sendAgain}</button>
      )),
    }] : []),
  ];

  return (
    <section aria-labelledby={heading}>
      <h2 id={heading}>{`Deliveries to ${endpoint.url}`}</h2>
      <div className="button-row">
        <button type="button" className="button button--secondary" onClick={() => void deliveries.refetch()} disabled={deliveries.isFetching}>Refresh</button>
      </div>
      <p role="status">{notice}</p>
      {deliveries.status === 'pending' && <Loading />}
      {deliveries.status === 'error' && <Alert kind="error">{MESSAGES.genericPageError}</Alert>}
      {deliveries.data && (deliveries.data.data.length
        ? <DataTable columns={columns} rows={deliveries.data.data} rowKey={(d) => d.id} labelledBy={heading} />
        : <p className="empty">No deliveries yet.</p>)}
      {deliveries.data && <Pager label="the deliveries" total={deliveries.data.total} skip={skip} pageSize={DELIVERIES_PAGE_SIZE} onChange={setSkip} />}
    </section>
  );
}

/**
 * `/webhooks`: an external account's endpoints (add, rotate the secret, remove) and each one's deliveries with their
 * attempts and Send again; an administrator reads every account's.
 */
export function WebhooksPage() {
  const { user } = useAuth().session;
  const manage = !!user?.isExternal && !user.isAdmin;
  const endpoints = useQuery({ queryKey: queryKeys.webhookEndpoints, queryFn: ({ signal }) => getWebhookEndpoints(signal) });
  const remove = useDeleteWebhookEndpoint();
  const rotate = useRotateWebhookSecret();
  const [secret, setSecret] = useState<{ secret: string; note: string } | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const rows = endpoints.data ?? [];
  const shown = rows.find((e) => e.id === selected) ?? null;

  const columns: Column<WebhookEndpoint>[] = [
    ...(manage ? [] : [{ header: 'Account', cell: (e: WebhookEndpoint) => e.ownerEmail }]),
    { header: 'URL', cell: (e) => <span className="cell--break">{e.url}</span> },
    { header: 'Events', cell: (e) => eventLabels(e.events) },
    { header: 'State', cell: (e) => endpointState(e) },
    { header: 'Deliveries', cell: (e) => `${e.deliveries}${e.failedDeliveries ? ` (${e.failedDeliveries} failed)` : ''}` },
    {
      header: 'Actions',
      cell: (e) => (
        <div className="button-row">
          <button type="button" className="button button--small" onClick={() => setSelected(e.id)} aria-label={`Deliveries to ${e.url}`}>Deliveries</button>
          {manage && (
            <>
              <ConfirmButton label="Rotate secret" className="button button--small button--secondary" confirmLabel="Rotate"
                message="A new secret signs every delivery from now on; the current one keeps signing too for 24 hours, so your system can switch."
                failureMessage="The secret could not be rotated: try again."
                action={async () => { const r = await rotate.mutateAsync(e.id); setSecret({ secret: r.secret, note: `New secret for ${e.url}. The previous one stays valid until ${displayDateTime(r.previousSecretValidUntil)}.` }); }}
                onDone={() => {}} />
              <ConfirmButton label="Remove" className="button button--small button--danger" confirmLabel="Remove"
                message={`Remove ${e.url} and its deliveries? Nothing more is sent to it.`}
                failureMessage="The endpoint could not be removed: try again."
                action={() => remove.mutateAsync(e.id)} onDone={() => { if (selected === e.id) setSelected(null); }} />
            </>
          )}
        </div>
      ),
    },
  ];

  return (
    <section className="page">
      <h1>Webhooks</h1>
      <p>Your systems can be told when one of your requests changes status, when its certificate or letter is issued, and when a message is posted. Each delivery is signed; a failing endpoint is retried for 3 days, then disabled (you are emailed).</p>
      {secret && <SecretNotice secret={secret.secret} note={secret.note} />}
      {endpoints.status === 'error' && <Alert kind="error">{MESSAGES.genericPageError}</Alert>}
      {endpoints.status === 'pending' && <Loading />}
      <section aria-labelledby="webhook-endpoints-heading">
        <h2 id="webhook-endpoints-heading">{manage ? 'Your endpoints' : 'Endpoints'}</h2>
        {endpoints.data && (rows.length
          ? <DataTable columns={columns} rows={rows} rowKey={(e) => e.id} labelledBy="webhook-endpoints-heading" />
          : <p className="empty">No endpoints yet.</p>)}
      </section>
      {manage && <NewEndpointForm onCreated={(s) => setSecret({ secret: s, note: 'The endpoint is registered.' })} />}
      {shown && <Deliveries key={shown.id} endpoint={shown} manage={manage} />}
    </section>
  );
}
