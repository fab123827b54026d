import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { RENEWAL_ITEM_STATES, type RenewalItemState } from '../../../../domain';
import { Alert } from '../../components/ui/alert';
import { DataTable, type Column } from '../../components/ui/data-table';
import { Loading } from '../../components/ui/loading';
import { Pager } from '../../components/ui/pager';
import { displayDateTime } from '../../lib/format';
import { paths } from '../../lib/paths';
import { queryKeys } from '../../lib/query-keys';
import { ANSWER_LABELS, DELIVERY_LABELS, isActiveRun, ITEM_STATE_LABELS } from './renewal-labels';
import { getRunItems, type RenewalItem, type RenewalRun } from './renewals-api';

const PAGE_SIZE = 25;

const columns: Column<RenewalItem>[] = [
  { header: 'Request', cell: (i) => <Link to={paths.certificate.view.getHref(i.requestId)}>{i.requestNumber}</Link> },
  { header: 'Holder', cell: (i) => i.holder, className: 'cell--break' },
  { header: 'Requester', cell: (i) => i.requester, className: 'cell--break' },
  { header: 'State', cell: (i) => ITEM_STATE_LABELS[i.state] },
  { header: 'Delivery', cell: (i) => (i.delivery ? DELIVERY_LABELS[i.delivery] : '—') },
  { header: 'Answer', cell: (i) => (i.answer ? ANSWER_LABELS[i.answer] : '—') },
  { header: 'Outcome', cell: (i) => i.outcome ?? i.reason },
  { header: 'Updated', cell: (i) => displayDateTime(i.updatedAt), className: 'cell--nowrap' },
];

/** One run's certificates, a page at a time, narrowed to one state. */
export function RunItems({ run }: { run: RenewalRun }) {
  const [state, setState] = useState<RenewalItemState | ''>('');
  const [skip, setSkip] = useState(0);
  const items = useQuery({
    queryKey: queryKeys.renewals.runItems(run.id, state, skip),
    queryFn: ({ signal }) => getRunItems(run.id, state, PAGE_SIZE, skip, signal),
    placeholderData: keepPreviousData,
    // The certificates change state as the run moves, like its progress bar.
    refetchInterval: isActiveRun(run) ? 1000 : false,
  });
  const headingId = `renewal-run-${run.id}-items`;
  return (
    <section className="renewal-items" aria-labelledby={headingId}>
      <h4 id={headingId}>Certificates of this run{items.data ? ` (${items.data.total.toLocaleString('en-US')})` : ''}</h4>
      <div className="field field--inline">
        <label htmlFor={`${headingId}-state`} className="field__label">Show</label>
        <select id={`${headingId}-state`} className="field__control field__control--select" value={state}
          onChange={(e) => { setState(e.target.value as RenewalItemState | ''); setSkip(0); }}>
          <option value="">Every state</option>
          {RENEWAL_ITEM_STATES.map((s) => <option key={s} value={s}>{ITEM_STATE_LABELS[s]}</option>)}
        </select>
      </div>
      {items.status === 'pending' && <Loading />}
      {items.status === 'error' && <Alert kind="error">{items.error.message}</Alert>}
      {items.data && (items.data.data.length
        ? <DataTable columns={columns} rows={items.data.data} rowKey={(i) => i.id} labelledBy={headingId} />
        : <p className="empty">No certificate in this state.</p>)}
      {items.data && <Pager label={`the certificates of run ${run.id}`} total={items.data.total} skip={skip} pageSize={PAGE_SIZE} onChange={setSkip} />}
    </section>
  );
}
