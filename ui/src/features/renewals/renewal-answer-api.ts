/** The requester's answer to "Do you still need this certificate?" (public: the token in the email is the key). */
import type { RenewalQuestion as RenewalQuestionSchema } from '../../../../contract/renewals.schema';
import type { Wire } from '../../../../contract/wire';
import type { RenewalAnswer } from '../../../../domain';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { useInvalidatingMutation } from '../../lib/use-invalidating-mutation';

export type RenewalQuestion = Wire<typeof RenewalQuestionSchema>;

// skipAuthRedirect: the page is for people who are not signed in; a stale stored token must not send them to login.
export const getQuestion = (token: string, signal?: AbortSignal) =>
  api.get<RenewalQuestion>(`/renewal-answers/${encodeURIComponent(token)}`, { signal, skipAuthRedirect: true });

/** The answer comes back as the question with its answer: it is the page's data as it now stands. */
export const useAnswerQuestion = (token: string) => useInvalidatingMutation({
  mutationFn: (answer: RenewalAnswer) =>
    api.post<RenewalQuestion>(`/renewal-answers/${encodeURIComponent(token)}`, { answer }, { skipAuthRedirect: true }),
  invalidates: [],
  setsAnswer: (question) => ({ queryKey: queryKeys.renewalQuestion(token), update: () => question }),
});
