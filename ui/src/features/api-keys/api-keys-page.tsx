import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { API_KEY_NAME_MAX, API_KEY_SCOPE_NAMES, API_KEY_SCOPES, type ApiKeyScope } from '../../../../domain/api-keys';
import { MESSAGES } from '../../../../domain';
import { Alert } from '../../components/ui/alert';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { TextField } from '../../components/ui/form-field';
import { Loading } from '../../components/ui/loading';
import { ApiError } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { listOwnApiKeys, useCreateApiKey, useRevokeApiKey, type ApiKeyEntry, type NewApiKey } from './api-keys-api';
import { ApiKeysTable } from './api-keys-table';

/** The key just made: shown this once, with a copy button; gone from the page once dismissed or left. */
function NewKeyNotice({ created, onDone }: { created: NewApiKey; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    await navigator.clipboard.writeText(created.key);
    setCopied(true);
  }
  return (
    <div className="card api-key-secret" role="region" aria-labelledby="new-key-heading">
      <h2 id="new-key-heading">Your new key: {created.name}</h2>
      <Alert kind="info">
        Copy this key now and keep it in your system&apos;s secret store. It is shown only this once: the portal keeps only a
        fingerprint of it and cannot show it again. If it is lost, revoke it and create another.
      </Alert>
      <p className="api-key-secret__value"><code data-testid="new-api-key">{created.key}</code></p>
      <div className="button-row">
        <button type="button" className="button" onClick={copy}>Copy key</button>
        <button type="button" className="button button--secondary" onClick={onDone}>I have saved it</button>
        <span role="status" className="api-key-secret__copied">{copied ? 'Copied to the clipboard.' : ''}</span>
      </div>
    </div>
  );
}

/** /account/api-keys: an external account's keys for its organisation's systems (create, see once, revoke). */
export function ApiKeysPage() {
  const keys = useQuery({ queryKey: queryKeys.apiKeys.own, queryFn: ({ signal }) => listOwnApiKeys(signal) });
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['requests:read', 'letters:read']);
  const [errors, setErrors] = useState<{ name?: string; scopes?: string }>({});
  const [created, setCreated] = useState<NewApiKey | null>(null);
  const [notice, setNotice] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyEntry | null>(null);

  const toggle = (scope: ApiKeyScope) => setScopes((s) => (s.includes(scope) ? s.filter((x) => x !== scope) : [...s, scope]));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof errors = {};
    if (!name.trim()) found.name = MESSAGES.required;
    if (!scopes.length) found.scopes = 'Please choose at least one thing this key may do';
    setErrors(found);
    setNotice(null);
    if (Object.keys(found).length) return;
    try {
      setCreated(await create.mutateAsync({ name: name.trim(), scopes }));
      setName('');
    } catch (error) {
      setNotice({ kind: 'error', text: error instanceof ApiError ? error.message : MESSAGES.genericPageError });
    }
  }

  function confirmRevoke() {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        setNotice({ kind: 'success', text: `The key “${revoking.name}” has been revoked. Calls with it are refused from now on.` });
        setRevoking(null);
      },
    });
  }

  return (
    <section className="page">
      <h1>API Keys</h1>
      <p>
        Keys let your organisation&apos;s own systems (credentialing software, say) file and follow requests for this account.
        A key can do only what you allow it below, and only with this account&apos;s requests. Send it as
        {' '}<code>Authorization: Bearer coi_…</code>; the calls are described at <a href="/api/docs">/api/docs</a>.
      </p>
      {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      {created && <NewKeyNotice created={created} onDone={() => setCreated(null)} />}
      <form onSubmit={submit} noValidate className="card" aria-labelledby="create-key-heading">
        <h2 id="create-key-heading">Create a Key</h2>
        <TextField name="name" label="Name" hint="Which system holds it, e.g. Credentialing system" required maxLength={API_KEY_NAME_MAX}
          value={name} onChange={(e) => setName(e.target.value)} error={errors.name} />
        <fieldset className="form-section" aria-describedby={errors.scopes ? 'scopes-error' : undefined}>
          <legend className="form-section__title">What it may do</legend>
          {API_KEY_SCOPE_NAMES.map((scope) => (
            <div className="field field--checkbox" key={scope}>
              <input id={`scope-${scope}`} type="checkbox" checked={scopes.includes(scope)} onChange={() => toggle(scope)} />
              <label htmlFor={`scope-${scope}`}>{API_KEY_SCOPES[scope]} <code>{scope}</code></label>
            </div>
          ))}
          {errors.scopes && <p id="scopes-error" className="error-text" role="alert">{errors.scopes}</p>}
        </fieldset>
        <div className="button-row">
          <button type="submit" className="button" disabled={create.isPending}>Create Key</button>
        </div>
      </form>
      <h2 id="keys-heading">Your Keys</h2>
      {keys.isPending ? <Loading /> : keys.isError ? <Alert kind="error">{MESSAGES.genericPageError}</Alert>
        : keys.data.length === 0 ? <p>No keys yet.</p>
          : <ApiKeysTable keys={keys.data} labelledBy="keys-heading" onRevoke={(k) => { revoke.reset(); setRevoking(k); }} />}
      <ConfirmDialog open={!!revoking} message={`Revoke the key “${revoking?.name ?? ''}”? Systems using it will be refused at once.`}
        confirmLabel="Revoke" busy={revoke.isPending} error={revoke.isError ? MESSAGES.genericPageError : null}
        onConfirm={confirmRevoke} onCancel={() => setRevoking(null)} />
    </section>
  );
}
