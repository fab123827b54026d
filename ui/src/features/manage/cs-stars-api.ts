/** The CS-STARS claims (spec 2 §7.11): the 10,000 latest by report date, and the CSV upload that replaces them. */
import type { ClaimDataRecord, CsStarsUploadResult } from '../../../../contract/desk.schema';
import type { Wire } from '../../../../contract/wire';
import { API_BASE, api } from '../../lib/api-client';
import { ApiError } from '../../lib/api-error';
import { queryKeys } from '../../lib/query-keys';
import { useInvalidatingMutation } from '../../lib/use-invalidating-mutation';
import { readToken } from '../../lib/token-storage';
import type { Paginated } from '../../types/api';

export type Claim = Wire<typeof ClaimDataRecord>;
type UploadAnswer = Wire<typeof CsStarsUploadResult>;

export const getClaims = (signal?: AbortSignal) =>
  api.get<Paginated<Claim>>('/cs-stars', { query: { $limit: 10000, $skip: 0, $sort: { reportDate: -1 } }, signal });

/** The CSV upload, with the browser's upload progress (0..1), then the server's answer. */
function uploadClaims(file: File, onProgress: (fraction: number) => void): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append('limit', '10000');
    form.append('file', file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}/cs-stars`);
    const token = readToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => { if (event.lengthComputable) onProgress(event.loaded / event.total); };
    xhr.onload = () => {
      const body = xhr.responseText ? JSON.parse(xhr.responseText) : {};
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else reject(new ApiError(xhr.status, body));
    };
    xhr.onerror = () => reject(new ApiError(503, { message: 'Unavailable' }));
    xhr.send(form);
  });
}

/**
 * The upload answers the claims' first page, which becomes the list at once (the page the upload was made on, not
 * read again). Letters the new claims make out of date show on the administrators' dashboards and on their
 * requests: those are marked stale too.
 */
export const useUploadClaims = () => useInvalidatingMutation({
  mutationFn: ({ file, onProgress }: { file: File; onProgress: (fraction: number) => void }) => uploadClaims(file, onProgress),
  setsAnswer: (answer) => ({ queryKey: queryKeys.csStarsClaims, update: () => answer }),
  invalidates: (answer) => (answer.staleLetters ? [queryKeys.adminDashboards, queryKeys.requests.all] : []),
});
