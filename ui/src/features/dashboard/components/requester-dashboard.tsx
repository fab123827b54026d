import { useMemo, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { MESSAGES, REQUESTER_GROUPS, STATUS, requesterGroupOf } from '../../../../../domain';
import { Alert } from '../../../components/ui/alert';
import { Loading } from '../../../components/ui/loading';
import { Tabs } from '../../../components/ui/tabs';
import { requestTypeLabel } from '../../../lib/request-labels';
import { useApiQuery } from '../../../lib/use-api-query';
import { useRequestEvents } from '../../../lib/use-request-events';
import { getRequests } from '../api/get-requests';
import { GroupedRequestTables } from './grouped-request-tables';
import { NewRequestButtons } from './new-request-buttons';
import { draftColumns, submittedColumns } from './request-columns';
import { RequestTypeFilter } from './request-type-filter';

export type RequesterTab = 'submitted' | 'drafts';
const RENTAL_FILTER = 'COI Request: Rental';

export function RequesterDashboard() {
  const location = useLocation();
  const initialTab = (location.state as { tab?: RequesterTab } | null)?.tab ?? 'submitted';
  const [tab, setTab] = useState<RequesterTab>(initialTab);
  const [filter, setFilter] = useState('');
  const requests = useApiQuery((signal) => getRequests(signal), []);
  useRequestEvents(requests.refetch); // status changes made by the office appear without a reload

  const { submitted, drafts } = useMemo(() => {
    const rows = (requests.data ?? []).filter((r) => !filter || requestTypeLabel(r) === filter);
    return { submitted: rows.filter((r) => r.status !== STATUS.draft), drafts: rows.filter((r) => r.status === STATUS.draft) };
  }, [requests.data, filter]);

  const showVin = filter === RENTAL_FILTER;
  return (
    <section className="page">
      <h1>Dashboard</h1>
      <NewRequestButtons />
      <RequestTypeFilter value={filter} onChange={setFilter} />
      {requests.status === 'loading' && <Loading />}
      {requests.status === 'error' && <Alert kind="error">{MESSAGES.dashboardLoadFailed}</Alert>}
      {requests.status === 'success' && (
        <Tabs label="Requests" active={tab} onChange={setTab} tabs={[
          { id: 'submitted', label: `Submitted Requests (${submitted.length})` },
          { id: 'drafts', label: `Draft Requests (${drafts.length})` },
        ]}>
          {tab === 'submitted'
            ? <GroupedRequestTables requests={submitted} columns={submittedColumns(showVin, filter)}
                groupOf={(r) => requesterGroupOf(r.status)} groupOrder={REQUESTER_GROUPS} />
            : <GroupedRequestTables requests={drafts} columns={draftColumns(showVin, requests.refetch, filter)} />}
        </Tabs>
      )}
    </section>
  );
}
