/** Search Submission History (spec 2 §7.5): one page of matching requests. */
import type { SearchResult, SearchRow as SearchRowSchema } from '../../../../contract/desk.schema';
import type { Wire } from '../../../../contract/wire';
import { api } from '../../lib/api-client';

export type SearchRow = Wire<typeof SearchRowSchema>;

export const searchRequests = (query: Record<string, string | number>, signal?: AbortSignal) =>
  api.get<Wire<typeof SearchResult>>('/search-requests', { query, signal });
