import { displayDate } from '../../lib/format';
import type { RequestRecord } from '../../types/api';
import { StaleLetterBadge } from '../../components/stale-letter-badge';

/**
 * On the request page of an administrator: why the issued letter may be out of date and what clears the flag.
 * Requesters never receive `letterStaleSince`, so they never see it.
 */
export function StaleLetterNotice({ request }: { request: RequestRecord }) {
  if (!request.letterStaleSince) return null;
  return (
    <div className="alert alert--warning" role="note" aria-label="Letter may be out of date">
      <p className="stale-letter__title"><StaleLetterBadge since={request.letterStaleSince} /></p>
      <p>
        The CS-STARS upload of {displayDate(request.letterStaleSince)} added or changed claims of {[request.firstName, request.lastName].filter(Boolean).join(' ') || 'this clinician'} reported
        within this request&apos;s dates, after its letter was generated. Review the claim history; generating the letter again clears this notice.
      </p>
    </div>
  );
}
