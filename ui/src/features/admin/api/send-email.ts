/**
 * Send Email (spec 2 §7.9): a template email for a request, or a failed one once more (`retryOf`: the id of its
 * 'Email Failed' audit row, so the server knows which failure this answers). The server answers 202 once the
 * request's workflow has queued it: the request's audit trail and the emails-not-sent list change (a failed email
 * sent again leaves the list at once). Whether it then goes out or fails again arrives as a live event.
 */
import type { SendEmailAccepted, SendEmailBody } from '../../../../../contract/send-email.schema';
import type { Wire } from '../../../../../contract/wire';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useInvalidatingMutation } from '../../../lib/use-invalidating-mutation';

type SendEmail = Wire<typeof SendEmailBody>;

const sendEmail = (body: SendEmail) => api.post<Wire<typeof SendEmailAccepted>>('/send-email', body);

/** What sending `bodies` changes: each request's audit trail, and the emails-not-sent list when one was sent again. */
const changedBy = (bodies: readonly SendEmail[]) => [
  ...[...new Set(bodies.map((body) => body.requestId))].map((requestId) => queryKeys.requests.activity(requestId)),
  ...(bodies.some((body) => body.retryOf) ? [queryKeys.emailProblemsAll] : []),
];

export const useSendEmail = () => useInvalidatingMutation({
  mutationFn: sendEmail,
  invalidates: (_answer, body) => changedBy([body]),
});

/**
 * Several failed emails sent again at once (Emails Not Sent): one command each (each keyed by its failed entry, so a
 * second press queues nothing twice), and what they changed is read again once, after the last answer.
 */
export const useSendEmailsAgain = () => useInvalidatingMutation({
  mutationFn: async (bodies: readonly SendEmail[]) => {
    const results = await Promise.allSettled(bodies.map(sendEmail));
    return { sent: results.filter((r) => r.status === 'fulfilled').length, failed: results.filter((r) => r.status === 'rejected').length };
  },
  invalidates: (_counts, bodies) => changedBy(bodies),
});
