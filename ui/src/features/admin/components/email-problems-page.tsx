import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { MESSAGES, REQUEST_TYPE } from '../../../../../domain';
import { Alert } from '../../../components/ui/alert';
import { DataTable, type Column } from '../../../components/ui/data-table';
import { Loading } from '../../../components/ui/loading';
import { Pager } from '../../../components/ui/pager';
import { api } from '../../../lib/api-client';
import { displayDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { UI_TEXT } from '../../../lib/ui-text';
import { queryKeys } from '../../../lib/query-keys';
import { useLiveQueries } from '../../../lib/use-live-queries';
import { useSendEmailsAgain } from '../api/send-email';
import { SendAgainButton } from './send-again-button';
import type { EmailProblem as EmailProblemSchema, EmailProblemsPage as EmailProblemsPageSchema } from '../../../../../contract/email-problems.schema';
import type { Wire } from '../../../../../contract/wire';

/** One row of GET /email-problems. */
export type EmailProblem = Wire<typeof EmailProblemSchema>;
type EmailProblemsData = Wire<typeof EmailProblemsPageSchema>;

const PAGE_SIZE = 50;

const requestHref = (p: EmailProblem) =>
  (p.requestType === REQUEST_TYPE.credentialing ? paths.credentialing.view : paths.certificate.view).getHref(p.requestId);
const canSendAgain = (p: EmailProblem): p is EmailProblem & { retryOf: number } => p.state === 'failed' && p.retryOf !== null;

/**
 * `/manage/email-problems`: every email or letter that failed or is long delayed, across
 * requests, with Send again for one or for those selected. Delayed ones are still being retried: nothing to press.
 */
export function EmailProblemsPage() {
  const [skip, setSkip] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [bulk, setBulk] = useState<{ state: 'idle' | 'sending' | 'done'; sent: number; failed: number }>({ state: 'idle', sent: 0, failed: 0 });
  const sendAgain = useSendEmailsAgain();
  const problems = useQuery({
    queryKey: queryKeys.emailProblems(skip),
    queryFn: ({ signal }) => api.get<EmailProblemsData>(`/email-problems?$limit=${PAGE_SIZE}&$skip=${skip}`, { signal }),
  });
  // An email that fails (a first time, or again after Send again) writes an "Email Failed" audit row: its live event
  // brings it here. Sent again, a failed email leaves the list when the Send again is answered (send-email.ts).
  useLiveQueries([queryKeys.emailProblemsAll], { kinds: ['activity'] });
  const rows = problems.data?.data ?? [];
  const sendable = rows.filter(canSendAgain);

  const toggle = (effectId: number) => setSelected((current) => {
    const next = new Set(current);
    if (!next.delete(effectId)) next.add(effectId);
    return next;
  });

  async function sendSelected() {
    const chosen = sendable.filter((p) => selected.has(p.effectId));
    setBulk({ state: 'sending', sent: 0, failed: 0 });
    const { sent, failed } = await sendAgain.mutateAsync(chosen.map((p) => ({ requestId: p.requestId, templateTitle: p.templateTitle, retryOf: p.retryOf })));
    setBulk({ state: 'done', sent, failed });
    setSelected(new Set());
  }

  const columns: Column<EmailProblem>[] = [
    {
      header: 'Select',
      cell: (p) => (canSendAgain(p)
        ? <input type="checkbox" checked={selected.has(p.effectId)} onChange={() => toggle(p.effectId)}
          aria-label={`Select ${p.subject} of request ${p.requestNumber ?? p.requestId}`} />
        : null),
    },
    { header: 'Request', cell: (p) => <Link to={requestHref(p)}>{p.requestNumber ?? `#${p.requestId}`}</Link> },
    { header: 'Email', cell: (p) => p.subject },
    { header: 'Recipients', cell: (p) => p.recipients || '—' },
    { header: 'State', cell: (p) => p.stateLabel },
    { header: 'Since', cell: (p) => displayDateTime(p.since), className: 'cell--nowrap' },
    { header: 'Reason', cell: (p) => p.reason ?? '—' },
    {
      header: 'Action',
      cell: (p) => (canSendAgain(p)
        ? <SendAgainButton requestId={p.requestId} templateTitle={p.templateTitle} retryOf={p.retryOf} />
        : null),
    },
  ];

  return (
    <section className="page">
      <h1>Emails Not Sent</h1>
      <p>Emails and letters that failed, or that are still being retried after 10 minutes. A failed email sent again leaves this list once it is queued.</p>
      {problems.status === 'error' && <Alert kind="error">{MESSAGES.genericPageError}</Alert>}
      {problems.status === 'pending' && <Loading />}
      {sendable.length > 0 && (
        <div className="button-row">
          <button type="button" className="button" disabled={selected.size === 0 || bulk.state === 'sending'} onClick={() => void sendSelected()}>
            {`${UI_TEXT.sendAgain} (${selected.size} selected)`}
          </button>
        </div>
      )}
      <p role="status">
        {bulk.state === 'done' ? `Queued ${bulk.sent} email${bulk.sent === 1 ? '' : 's'} to be sent again.${bulk.failed ? ` ${bulk.failed} could not be queued: try again.` : ''}` : ''}
      </p>
      <section aria-labelledby="email-problems-heading">
        <h2 id="email-problems-heading">{problems.data ? `Not sent (${problems.data.total})` : 'Not sent'}</h2>
        {problems.data && (rows.length
          ? <DataTable columns={columns} rows={rows} rowKey={(p) => p.effectId} labelledBy="email-problems-heading" />
          : <p className="empty">Every email and letter went out.</p>)}
        {problems.data && <Pager label="the emails not sent" total={problems.data.total} skip={skip} pageSize={PAGE_SIZE} onChange={setSkip} />}
      </section>
    </section>
  );
}
