import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '../../components/ui/alert';
import { Loading } from '../../components/ui/loading';
import { Modal } from '../../components/ui/modal';
import { displayDateTime } from '../../lib/format';
import { queryKeys } from '../../lib/query-keys';
import { getRuleVersions, type InstantRule } from './instant-api';
import { VersionDetails } from './rule-in-words';

/** Every saved version of a rule, newest first, with who saved it and when; one at a time read in full. */
export function RuleVersionsDialog({ rule, onClose }: { rule: InstantRule | null; onClose: () => void }) {
  return (
    <Modal open={rule !== null} title={rule ? `Versions of ${rule.name}` : 'Versions'} onClose={onClose} wide>
      {rule && <VersionList rule={rule} />}
    </Modal>
  );
}

function VersionList({ rule }: { rule: InstantRule }) {
  const versions = useQuery({ queryKey: queryKeys.instantRuleVersions(rule.id), queryFn: ({ signal }) => getRuleVersions(rule.id, signal) });
  const [shown, setShown] = useState<number | null>(null);
  if (versions.status === 'pending') return <Loading />;
  if (versions.status === 'error') return <Alert kind="error">{versions.error.message}</Alert>;
  const current = versions.data.find((v) => v.version === (shown ?? versions.data[0]?.version));
  return (
    <>
      <table className="data-table">
        <caption className="sr-only">Saved versions</caption>
        <thead><tr><th scope="col">Version</th><th scope="col">Saved</th><th scope="col">By</th><th scope="col">Action</th></tr></thead>
        <tbody>
          {versions.data.map((v) => (
            <tr key={v.version}>
              <td data-label="Version">v{v.version}{v.version === rule.version ? ' (current)' : ''}</td>
              <td data-label="Saved">{displayDateTime(v.savedAt)}</td>
              <td data-label="By">{v.savedBy ?? '—'}</td>
              <td data-label="Action">
                <button type="button" className="button button--small button--secondary" aria-pressed={current?.version === v.version}
                  onClick={() => setShown(v.version)}>View v{v.version}</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {current && (
        <section aria-labelledby="version-shown-heading">
          <h3 id="version-shown-heading">Version {current.version}</h3>
          <VersionDetails version={current} />
        </section>
      )}
    </>
  );
}
