import { useQuery } from '@tanstack/react-query';
import { STATUS } from '../../../../../domain';
import { getRequest } from '../../../lib/request-api';
import { queryKeys } from '../../../lib/query-keys';
import { useLiveQueries } from '../../../lib/use-live-queries';

/**
 * Whether a request just submitted already has its certificate: the office's rules may approve it within seconds of
 * the submit's answer (the workflow decides after answering), and the letter follows a little later. The request is
 * read once now and again on each of its live events (the approval, the letter, the email), while the caller is
 * mounted: no timer. Ready means Approved with the generated letter stored.
 */
export function useCertificateReady(requestId: number): boolean {
  const request = useQuery({
    queryKey: queryKeys.requests.detail(requestId),
    queryFn: ({ signal }) => getRequest(requestId, signal),
    // The form page's copy is the draft it opened: read the request as the submit left it.
    refetchOnMount: 'always',
  });
  useLiveQueries([queryKeys.requests.detail(requestId)], { requestId });
  const r = request.data;
  return !!r && r.status === STATUS.approved && (r.documents ?? []).some((d) => d.origin === 'system');
}
