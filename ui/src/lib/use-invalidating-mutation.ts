/**
 * Every write the UI makes: TanStack Query's useMutation, plus the one rule for what a write does to the cache.
 *
 * The rule:
 * - Each key the write changes is named (`invalidates`, fixed or from the answer and the variables) and marked stale
 *   once the server has answered, together with the keys under it (TanStack's prefix match); the screens showing one
 *   read it again, once each (one invalidation for all the keys); a key no screen shows is read when a screen does.
 * - The server's answer is the truth for the one key whose data it is (`setsAnswer`): it is put there and that key is
 *   NOT read again, even when a wider key in `invalidates` covers it. Never both for one key. Set the answer only
 *   where reading again would show the old data first (the page the write was made on); otherwise invalidate.
 * - The write is done (`isPending` ends, `mutateAsync` resolves, `mutate`'s own callbacks run) once what was read
 *   again has arrived: what a success message sits beside is already current, with no flash of the old rows.
 * - A failed write changes nothing in the cache (no optimistic update to undo).
 * - The plan is the one of the render the write was made in: a screen that shows another request by the time the
 *   answer comes (the same component, new props) does not get the first request's answer in its own key.
 * What others and the workflow write later (letters, emails, audit rows) arrives as live events (use-live-queries.ts):
 * no timer and no `refetch()` after a write.
 */
import { hashKey, partialMatchKey, useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/** The key the answer is the data of, and how the answer turns the cached data into the new data. */
export interface AnswerEntry {
  queryKey: QueryKey;
  /** Given what the cache holds (undefined when nothing), the data to hold now. */
  update: (cached: never) => unknown;
}

export interface InvalidatingMutationOptions<TAnswer, TVariables> {
  mutationFn: (variables: TVariables) => Promise<TAnswer>;
  /** The keys the write changes; `[]` when nothing the screens read changes (a password reset, a mail sent). */
  invalidates: readonly QueryKey[] | ((answer: TAnswer, variables: TVariables) => readonly QueryKey[]);
  /** Where the answer goes as it is (see the rule above); that key is left out of the invalidation. */
  setsAnswer?: (answer: TAnswer, variables: TVariables) => AnswerEntry | null;
  /** What else the answer changes outside the query cache (the session); runs after the cache is current. */
  onSuccess?: (answer: TAnswer, variables: TVariables) => unknown;
}

type CachePlan<TAnswer, TVariables> = Pick<InvalidatingMutationOptions<TAnswer, TVariables>, 'invalidates' | 'setsAnswer' | 'onSuccess'>;

export function useInvalidatingMutation<TAnswer, TVariables = void>(options: InvalidatingMutationOptions<TAnswer, TVariables>) {
  const queryClient = useQueryClient();
  const { mutationFn, ...plan } = options;
  return useMutation({
    mutationFn,
    // TanStack calls the hook's callbacks of the latest render: the plan is taken when the write starts instead.
    onMutate: (): CachePlan<TAnswer, TVariables> => plan,
    onSuccess: async (answer: TAnswer, variables: TVariables, taken: CachePlan<TAnswer, TVariables>) => {
      const { invalidates, setsAnswer, onSuccess } = taken;
      const entry = setsAnswer?.(answer, variables) ?? null;
      if (entry) queryClient.setQueryData(entry.queryKey, (cached: unknown) => entry.update(cached as never));
      const keys = typeof invalidates === 'function' ? invalidates(answer, variables) : invalidates;
      const setHash = entry ? hashKey(entry.queryKey) : null;
      if (keys.length > 0) {
        await queryClient.invalidateQueries({
          predicate: (query) => query.queryHash !== setHash && keys.some((key) => partialMatchKey(query.queryKey, key)),
        });
      }
      await onSuccess?.(answer, variables);
    },
  });
}
