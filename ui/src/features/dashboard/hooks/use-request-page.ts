import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys';
import { useLiveQueries } from '../../../lib/use-live-queries';
import { getRequestPage, PAGE_SIZE, type RequestListFilter } from '../api/get-requests';

/** First row of the last page of `total` rows. */
const lastPageSkip = (total: number) => Math.max(0, Math.floor((total - 1) / PAGE_SIZE) * PAGE_SIZE);

/**
 * One page of one dashboard table, and its total. Live events mark this page stale only (useLiveQueries), so a
 * screen reloads what it shows and nothing more. A new filter starts again at the first page; the rows on screen
 * stay until the next page has arrived (the query client keeps the previous data).
 */
export function useRequestPage(filter: RequestListFilter) {
  const key = JSON.stringify(filter);
  const [wanted, setWanted] = useState({ key, skip: 0 });
  const skip = wanted.key === key ? wanted.skip : 0;
  const queryKey = queryKeys.requests.list(filter, skip);
  const page = useQuery({
    queryKey,
    queryFn: async ({ signal }) => {
      const result = await getRequestPage(filter, skip, signal);
      // Rows left this table since it was paged (a live update, a deleted draft): show the last page that has rows.
      if (result.data.length === 0 && skip > 0 && result.total > 0) return getRequestPage(filter, lastPageSkip(result.total), signal);
      return result;
    },
  });
  useLiveQueries([queryKey]);
  return {
    status: page.status, data: page.data, error: page.error,
    goTo: (nextSkip: number) => setWanted({ key, skip: nextSkip }),
  };
}

export type RequestPage = ReturnType<typeof useRequestPage>;
