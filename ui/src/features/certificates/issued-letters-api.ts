/** A request's issued certificates and letters, and an administrator's revocation of one. */
import type { IssuedLetterList, RevokeCertificateBody } from '../../../../contract/issued-letter.schema';
import type { Wire } from '../../../../contract/wire';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { useInvalidatingMutation } from '../../lib/use-invalidating-mutation';

export type IssuedLetterItem = Wire<typeof IssuedLetterList>['items'][number];

export const getIssuedLetters = (requestId: number, signal?: AbortSignal) =>
  api.get<Wire<typeof IssuedLetterList>>(`/requests/${requestId}/certificates`, { signal });

/** Revokes one: its status and the request's audit trail change (the workflow records it and emails the requester). */
export const useRevokeIssuedLetter = (requestId: number) => useInvalidatingMutation({
  mutationFn: ({ code, body }: { code: string; body: Wire<typeof RevokeCertificateBody> }) =>
    api.post<unknown>(`/requests/${requestId}/certificates/${encodeURIComponent(code)}/revoke`, body),
  invalidates: [queryKeys.requests.issuedLetters(requestId), queryKeys.requests.activity(requestId)],
});
