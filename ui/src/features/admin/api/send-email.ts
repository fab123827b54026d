/**
 * Send Email (spec 2 §7.9): a template email for a request, or a failed one once more (`retryOf`: the id of its
 * 'Email Failed' audit row, so the server knows which failure this answers). The server answers 202 once the
 * request's workflow has queued it: the request's audit trail and the emails-not-sent list change.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SendEmailAccepted, SendEmailBody } from '../../../../../contract/send-email.schema';
import type { Wire } from '../../../../../contract/wire';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export function useSendEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Wire<typeof SendEmailBody>) => api.post<Wire<typeof SendEmailAccepted>>('/send-email', body),
    onSuccess: (_answer, body) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.requests.activity(body.requestId) });
      if (body.retryOf) void queryClient.invalidateQueries({ queryKey: queryKeys.emailProblemsAll });
    },
  });
}
