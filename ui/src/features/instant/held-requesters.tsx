import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/ui/alert';
import { displayDateTime } from '../../lib/format';
import { queryKeys } from '../../lib/query-keys';
import { getInstantHolds, useReleaseHold } from './instant-api';

/**
 * Requesters on hold: whatever a rule says, their requests wait for a person. A revoked instant certificate puts its
 * requester here; the office releases them when it trusts their requests again.
 */
export function HeldRequesters() {
  const holds = useQuery({ queryKey: queryKeys.instantHolds, queryFn: ({ signal }) => getInstantHolds(signal) });
  const release = useReleaseHold();
  return (
    <section aria-labelledby="instant-holds-heading">
      <h2 id="instant-holds-heading">Requesters on Hold</h2>
      {holds.isError && <Alert kind="error">{holds.error.message}</Alert>}
      {release.isError && <Alert kind="error">{release.error.message}</Alert>}
      {holds.data?.length === 0 && <p className="muted">Nobody is on hold.</p>}
      {!!holds.data?.length && (
        <div className="table-scroll">
          <table className="table">
            <thead><tr><th scope="col">Requester</th><th scope="col">Since</th><th scope="col">Why</th><th scope="col"><span className="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {holds.data.map((h) => (
                <tr key={h.userId}>
                  <td>{h.name}<br /><span className="muted">{h.email}</span></td>
                  <td>{displayDateTime(h.since)}</td>
                  <td>{h.reason ?? '—'}</td>
                  <td>
                    <button type="button" className="button button--secondary" disabled={release.isPending}
                      aria-label={`Release ${h.name} from hold`} onClick={() => release.mutate(h.userId)}>Release</button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
