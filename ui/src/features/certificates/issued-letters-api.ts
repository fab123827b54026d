/** A request's issued certificates and letters, and an administrator's revocation of one. */
import type { IssuedLetterList, RevokeCertificateBody } from '../../../../contract/issued-letter.schema';
import type { Wire } from '../../../../contract/wire';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';

export type IssuedLetterItem = Wire<typeof IssuedLetterList>['items'][number];

export const getIssuedLetters = (requestId: number, signal?: AbortSignal) =>
  api.get<Wire<typeof IssuedLetterList>>(`/requests/${requestId}/certificates`, { signal });

/** Revokes one: its status and the request's audit trail change (the workflow records it and emails the requester). */
export function useRevokeIssuedLetter(requestId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ code, body }: { code: string; body: Wire<typeof RevokeCertificateBody> }) =>
      api.post<unknown>(`/requests/${requestId}/certificates/${encodeURIComponent(code)}/revoke`, body),
    onSuccess: () => Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.requests.issuedLetters(requestId) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.requests.activity(requestId) }),
    ]),
  });
}
