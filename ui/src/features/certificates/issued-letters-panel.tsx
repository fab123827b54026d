import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { ISSUED_LETTER_KIND_LABELS } from '../../../../domain';
import { displayDate } from '../../lib/format';
import { paths } from '../../lib/paths';
import { queryKeys } from '../../lib/query-keys';
import { getIssuedLetters, type IssuedLetterItem } from './issued-letters-api';
import { RevokeLetterDialog } from './revoke-letter-dialog';
import { PreferenceSelect } from '../../components/renewal-mark-select';

const statusText = (letter: IssuedLetterItem) => {
  if (letter.status === 'Revoked') return `Revoked ${displayDate(letter.revokedAt)}${letter.revokeReason ? ` (${letter.revokeReason})` : ''}`;
  if (letter.status === 'Superseded') return `Superseded ${displayDate(letter.supersededAt)}`;
  return 'Valid';
};

/**
 * The certificates and letters a request issued, newest first, with the code printed on each (a link to its public
 * status page) and its status. Administrators revoke a Valid one here.
 */
export function IssuedLettersPanel({ requestId, isAdmin }: { requestId: number; isAdmin: boolean }) {
  const letters = useQuery({ queryKey: queryKeys.requests.issuedLetters(requestId), queryFn: ({ signal }) => getIssuedLetters(requestId, signal) });
  const [revoking, setRevoking] = useState<IssuedLetterItem | null>(null);
  const [done, setDone] = useState('');
  const items = letters.data?.items ?? [];
  if (letters.status === 'pending' || (letters.status === 'success' && items.length === 0)) return null;

  return (
    <section className="details-section" aria-labelledby="issued-letters-heading">
      <h2 id="issued-letters-heading" className="details-section__title">Certificates and Letters Issued</h2>
      {letters.status === 'error' ? <p className="error-text">The issued certificates could not be loaded.</p> : (
        <table className="data-table">
          <thead>
            <tr><th scope="col">Verification code</th><th scope="col">Kind</th><th scope="col">Issued</th><th scope="col">Status</th>
              {isAdmin && <th scope="col">Action</th>}</tr>
          </thead>
          <tbody>
            {items.map((letter) => (
              <tr key={letter.code}>
                <td data-label="Verification code"><Link className="verify-code" to={paths.verify.getHref(letter.code)}>{letter.code}</Link></td>
                <td data-label="Kind">{ISSUED_LETTER_KIND_LABELS[letter.kind]}</td>
                <td data-label="Issued">{displayDate(letter.issuedAt)}</td>
                <td data-label="Status">{statusText(letter)}</td>
                {isAdmin && (
                  <td data-label="Action">{letter.status === 'Valid' && (
                    <button type="button" className="button button--small button--danger-outline" aria-label={`Revoke ${letter.code}`}
                      onClick={() => { setDone(''); setRevoking(letter); }}>Revoke</button>
                  )}</td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {isAdmin && letters.data?.renewal && (
        <div className="issued-letters__renewal">
          <label htmlFor={`renewal-mark-${requestId}`}>Renewal</label>{' '}
          <PreferenceSelect id={`renewal-mark-${requestId}`} requestId={requestId} requestNumber={null} preference={letters.data.renewal.preference} />
          {letters.data.renewal.renewedFor.length > 0 && <p className="muted">Renewed for {letters.data.renewal.renewedFor.join(', ')}</p>}
        </div>
      )}
      <p role="status" className="muted">{done}</p>
      {isAdmin && (
        <RevokeLetterDialog requestId={requestId} letter={revoking} onClose={() => setRevoking(null)}
          onRevoked={() => setDone(`${revoking?.code ?? 'The certificate'} was revoked.`)} />
      )}
    </section>
  );
}
