import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { instantActorName } from '../../../../domain';
import { Alert } from '../../components/ui/alert';
import { DataTable, type Column } from '../../components/ui/data-table';
import { Loading } from '../../components/ui/loading';
import { Pager } from '../../components/ui/pager';
import { displayDateTime } from '../../lib/format';
import { paths } from '../../lib/paths';
import { queryKeys } from '../../lib/query-keys';
import { useLiveQueries } from '../../lib/use-live-queries';
import { getInstantChecks, useConfirmCheck, type InstantCheck } from './instant-api';

const PAGE_SIZE = 25;
const numberOf = (c: InstantCheck) => String(c.requestNumber ?? `#${c.requestId}`);

/**
 * `/manage/check-after-issue`: one in N certificates each rule issued, oldest first, until an administrator confirms
 * it. A wrong one is revoked on its request's page (the certificates' own revocation).
 */
export function CheckAfterIssuePage() {
  const [skip, setSkip] = useState(0);
  const checks = useQuery({ queryKey: queryKeys.instantChecks(skip), queryFn: ({ signal }) => getInstantChecks(PAGE_SIZE, skip, signal) });
  // A rule's approval is a status change: the next one to check arrives with its live event.
  useLiveQueries([queryKeys.instantChecksAll], { kinds: ['status'] });
  const confirm = useConfirmCheck();
  const [done, setDone] = useState('');
  const [failed, setFailed] = useState<string | null>(null);

  const confirmOne = (c: InstantCheck) => {
    setDone('');
    setFailed(null);
    confirm.mutate(c.id, {
      onSuccess: () => setDone(`Request ${numberOf(c)} confirmed.`),
      onError: (error) => setFailed(`Request ${numberOf(c)}: ${error.message}`),
    });
  };

  const columns: Column<InstantCheck>[] = [
    { header: 'Request', cell: (c) => <Link to={paths.certificate.view.getHref(c.requestId)}>{numberOf(c)}</Link> },
    { header: 'Certificate type', cell: (c) => c.certificateType ?? '—' },
    { header: 'Requester', cell: (c) => c.requesterName ?? '—' },
    { header: 'Certificate holder', cell: (c) => c.certificateHolder ?? '—' },
    { header: 'Issued by', cell: (c) => (c.ruleName ? instantActorName(c.ruleName, c.ruleVersion ?? 1) : '—') },
    { header: 'Issued', cell: (c) => displayDateTime(c.decidedAt), className: 'cell--nowrap' },
    { header: 'Status', cell: (c) => c.status },
    {
      header: 'Action', className: 'cell--action', cell: (c) => (
        <button type="button" className="button button--small" disabled={confirm.isPending} aria-label={`Confirm request ${numberOf(c)}`}
          onClick={() => confirmOne(c)}>Confirm</button>
      ),
    },
  ];

  return (
    <section className="page">
      <h1>Check After Issue</h1>
      <p>
        Certificates the office&apos;s rules issued, one in N of each rule, oldest first. Open the request to look at it; Confirm when it is right.
        A wrong one is revoked on its request&apos;s page, under Certificates and Letters Issued.
      </p>
      {checks.status === 'error' && <Alert kind="error">{checks.error.message}</Alert>}
      {failed && <Alert kind="error">{failed}</Alert>}
      <p role="status" className="muted">{done}</p>
      <section aria-labelledby="checks-heading">
        <h2 id="checks-heading">{checks.data ? `To check (${checks.data.total})` : 'To check'}</h2>
        {checks.status === 'pending' && <Loading />}
        {checks.data && (checks.data.data.length
          ? <DataTable columns={columns} rows={checks.data.data} rowKey={(c) => c.id} labelledBy="checks-heading" />
          : <p className="empty">Nothing to check.</p>)}
        {checks.data && <Pager label="the certificates to check" total={checks.data.total} skip={skip} pageSize={PAGE_SIZE} onChange={setSkip} />}
      </section>
    </section>
  );
}
