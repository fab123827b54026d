/** Email templates (spec 1 §5, spec 2 §7.9): the list, an update (marks the list stale) and a preview (changes nothing). */
import type { EmailTemplateRecord, PatchTemplateBody, PreviewResult, PreviewTemplateBody } from '../../../../contract/desk.schema';
import type { Wire } from '../../../../contract/wire';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { useInvalidatingMutation } from '../../lib/use-invalidating-mutation';
import type { Paginated } from '../../types/api';

export type EmailTemplate = Wire<typeof EmailTemplateRecord>;

export const getTemplates = (signal?: AbortSignal) => api.get<Paginated<EmailTemplate>>('/email-templates', { signal }).then((r) => r.data);

export const useUpdateTemplate = () => useInvalidatingMutation({
  mutationFn: ({ id, changes }: { id: number; changes: Wire<typeof PatchTemplateBody> }) => api.patch<EmailTemplate>(`/email-templates/${id}`, changes),
  invalidates: [queryKeys.templates],
});

/** The template as a request (or a sample) would get it: a POST that stores nothing, so nothing goes stale. */
export const usePreviewTemplate = () => useInvalidatingMutation({
  mutationFn: (body: Wire<typeof PreviewTemplateBody>) => api.post<Wire<typeof PreviewResult>>('/email-templates/preview', body),
  invalidates: [],
});
