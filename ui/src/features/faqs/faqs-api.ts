/** FAQs of each type in order (spec 1 §5), and the administrators' writes, each marking its type's list stale. */
import type { CreateFaqBody, FaqRecord, UpdateFaqBody } from '../../../../contract/desk.schema';
import type { Wire } from '../../../../contract/wire';
import type { FaqType } from '../../../../domain';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { useInvalidatingMutation } from '../../lib/use-invalidating-mutation';
import type { Paginated } from '../../types/api';

export type Faq = Omit<Wire<typeof FaqRecord>, 'type'> & { type: FaqType };

export const getFaqs = (type: FaqType, signal?: AbortSignal) =>
  api.get<Paginated<Faq>>('/faqs', { query: { type, $sort: { order: 1 } }, signal }).then((r) => r.data);

/** A write reorders the FAQs of its type: that list is read again. */
const useFaqWrite = <V>(write: (variables: V) => Promise<unknown>, typeOf: (variables: V) => FaqType) => useInvalidatingMutation({
  mutationFn: write,
  invalidates: (_answer, variables) => [queryKeys.faqs(typeOf(variables))],
});

export const useCreateFaq = () => useFaqWrite(
  (body: Wire<typeof CreateFaqBody> & { type: FaqType }) => api.post<Faq>('/faqs', body),
  (body) => body.type,
);

export const useUpdateFaq = () => useFaqWrite(
  ({ faq, changes }: { faq: Faq; changes: Wire<typeof UpdateFaqBody> }) => api.patch<Faq>(`/faqs/${faq.id}`, changes),
  ({ faq }) => faq.type,
);

export const useDeleteFaq = () => useFaqWrite((faq: Faq) => api.delete<Faq>(`/faqs/${faq.id}`), (faq) => faq.type);
