import { API_KEY_SCOPE_NAMES } from '../../../../domain/api-keys';
import { DataTable, type Column } from '../../components/ui/data-table';
import { displayDateTime } from '../../lib/format';
import type { AdminApiKeyEntry, ApiKeyEntry } from './api-keys-api';

/** Keys as their owner and administrators list them: live ones revocable, revoked ones kept as their history. */
export function ApiKeysTable<K extends ApiKeyEntry | AdminApiKeyEntry>({ keys, labelledBy, onRevoke }: {
  keys: readonly K[]; labelledBy: string; onRevoke: (key: K) => void;
}) {
  const owner: Column<K>[] = keys.some((k) => 'owner' in k)
    ? [{ header: 'Account', cell: (k) => ('owner' in k ? `${k.owner.email}${k.owner.company ? ` (${k.owner.company})` : ''}` : '') }]
    : [];
  const columns: Column<K>[] = [
    { header: 'Name', cell: (k) => k.name },
    ...owner,
    { header: 'Key', cell: (k) => <code>coi_{k.prefix}_…</code> },
    { header: 'Scopes', cell: (k) => API_KEY_SCOPE_NAMES.filter((s) => k.scopes.includes(s)).join(', ') }, // in the list's order
    { header: 'Created', cell: (k) => displayDateTime(k.createdAt) },
    { header: 'Last Used', cell: (k) => (k.lastUsedAt ? displayDateTime(k.lastUsedAt) : 'Never') },
    {
      header: 'Status',
      cell: (k) => (k.revokedAt ? `Revoked ${displayDateTime(k.revokedAt)}` : (
        <button type="button" className="button button--danger-outline" onClick={() => onRevoke(k)} aria-label={`Revoke ${k.name}`}>Revoke</button>
      )),
    },
  ];
  return <DataTable columns={columns} rows={keys} rowKey={(k) => k.id} labelledBy={labelledBy} />;
}
