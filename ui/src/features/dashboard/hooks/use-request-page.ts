import { useState } from 'react';
import { useApiQuery } from '../../../lib/use-api-query';
import { useRequestEvents } from '../../../lib/use-request-events';
import { getRequestPage, PAGE_SIZE, type RequestListFilter } from '../api/get-requests';

/** First row of the last page of `total` rows. */
const lastPageSkip = (total: number) => Math.max(0, Math.floor((total - 1) / PAGE_SIZE) * PAGE_SIZE);

/**
 * One page of one dashboard table, and its total. Live events refetch this page only (debounced in
 * useRequestEvents), so a screen reloads what it shows and nothing more. A new filter starts again at the first
 * page; the rows on screen stay until the next page has arrived.
 */
export function useRequestPage(filter: RequestListFilter) {
  const key = JSON.stringify(filter);
  const [wanted, setWanted] = useState({ key, skip: 0 });
  const skip = wanted.key === key ? wanted.skip : 0;
  const page = useApiQuery(async (signal) => {
    const result = await getRequestPage(filter, skip, signal);
    // Rows left this table since it was paged (a live update, a deleted draft): show the last page that has rows.
    if (result.data.length === 0 && skip > 0 && result.total > 0) return getRequestPage(filter, lastPageSkip(result.total), signal);
    return result;
  }, [key, skip]);
  useRequestEvents(page.refetch);
  return { ...page, goTo: (nextSkip: number) => setWanted({ key, skip: nextSkip }) };
}

export type RequestPage = ReturnType<typeof useRequestPage>;
