import { useState } from 'react';
import type { ApiError } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { getRequest } from '../../../lib/request-api';
import { useFirstFetch } from '../../../lib/use-first-fetch';
import type { RequestRecord } from '../../../types/api';

export type RequestFormSource =
  | { status: 'loading' }
  | { status: 'ready'; record: RequestRecord | null; key: string; cloneFrom?: RequestRecord }
  | { status: 'error'; error: ApiError };

/**
 * What a request form page starts from, for both kinds: nothing (a new request), the request of the edit address,
 * or the request being cloned (`cloneFrom`: its values, as a new draft). When the first save creates the draft
 * (`markCreated`), the address becomes the edit address and the form stays exactly as it is: same key, same
 * starting values, no fetch. Each source is read once per screen (useFirstFetch): a refetch must not reset the form.
 */
export function useRequestFormSource(id: string | undefined, navCloneId: number | undefined) {
  const [created, setCreated] = useState<{ record: RequestRecord; cloneId?: number } | null>(null);
  const justCreated = !!id && Number(id) === created?.record.id;
  const cloneId = justCreated ? created.cloneId : navCloneId;
  const editing = !!id && !justCreated;
  const wanted = editing ? Number(id) : cloneId || undefined;
  const source = useFirstFetch({
    queryKey: queryKeys.requests.detail(wanted ?? 0),
    queryFn: ({ signal }) => getRequest(wanted!, signal),
    enabled: wanted !== undefined,
  });
  let loaded: RequestFormSource;
  if (wanted === undefined) loaded = { status: 'ready', record: null, key: 'new' };
  else if (source.status !== 'ready') loaded = source;
  else if (editing) loaded = { status: 'ready', record: source.data, key: String(source.data.id) };
  else loaded = { status: 'ready', record: null, key: `clone-${source.data.id}`, cloneFrom: source.data };
  return {
    loaded,
    /** The draft the first save created (its number shows before any reload). */
    created: created?.record ?? null,
    markCreated: (record: RequestRecord) => setCreated({ record, cloneId }),
  };
}
