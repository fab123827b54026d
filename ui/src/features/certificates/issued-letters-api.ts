/** A request's issued certificates and letters, and an administrator's revocation of one. */
import type { IssuedLetterList, RevokeCertificateBody } from '../../../../contract/issued-letter.schema';
import type { Wire } from '../../../../contract/wire';
import { api } from '../../lib/api-client';

export type IssuedLetterItem = Wire<typeof IssuedLetterList>['items'][number];

export const getIssuedLetters = (requestId: number, signal?: AbortSignal) =>
  api.get<Wire<typeof IssuedLetterList>>(`/requests/${requestId}/certificates`, { signal });

export const revokeIssuedLetter = (requestId: number, code: string, body: Wire<typeof RevokeCertificateBody>) =>
  api.post<unknown>(`/requests/${requestId}/certificates/${encodeURIComponent(code)}/revoke`, body);
