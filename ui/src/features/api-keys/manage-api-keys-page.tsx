import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { MESSAGES } from '../../../../domain';
import { Alert } from '../../components/ui/alert';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Loading } from '../../components/ui/loading';
import { queryKeys } from '../../lib/query-keys';
import { listAllApiKeys, useRevokeApiKey, type AdminApiKeyEntry } from './api-keys-api';
import { ApiKeysTable } from './api-keys-table';

/** /manage/api-keys: every organisation's API keys, with the account that owns each; an administrator revokes any. */
export function ManageApiKeysPage() {
  const keys = useQuery({ queryKey: queryKeys.apiKeys.every, queryFn: ({ signal }) => listAllApiKeys(signal) });
  const revoke = useRevokeApiKey();
  const [revoking, setRevoking] = useState<AdminApiKeyEntry | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  function confirmRevoke() {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => {
        setNotice(`The key “${revoking.name}” of ${revoking.owner.email} has been revoked.`);
        setRevoking(null);
      },
    });
  }

  return (
    <section className="page">
      <h1>API Keys</h1>
      <p>Keys organisations created for their systems. Each acts only for its account, with its scopes; none has an administrator&apos;s rights.</p>
      {notice && <Alert kind="success">{notice}</Alert>}
      <h2 id="all-keys-heading">Every Account&apos;s Keys</h2>
      {keys.isPending ? <Loading /> : keys.isError ? <Alert kind="error">{MESSAGES.genericPageError}</Alert>
        : keys.data.length === 0 ? <p>No organisation has created a key.</p>
          : <ApiKeysTable keys={keys.data} labelledBy="all-keys-heading" onRevoke={(k) => { revoke.reset(); setRevoking(k); }} />}
      <ConfirmDialog open={!!revoking} message={`Revoke the key “${revoking?.name ?? ''}” of ${revoking?.owner.email ?? ''}? Its system will be refused at once.`}
        confirmLabel="Revoke" busy={revoke.isPending} error={revoke.isError ? MESSAGES.genericPageError : null}
        onConfirm={confirmRevoke} onCancel={() => setRevoking(null)} />
    </section>
  );
}
