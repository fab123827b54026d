import { useMemo, useState } from 'react';
import { ALL_STATUSES, MESSAGES, STATUS, adminGroupOf } from '../../../../../domain';
import { Alert } from '../../../components/ui/alert';
import { Loading } from '../../../components/ui/loading';
import { Tabs } from '../../../components/ui/tabs';
import { useApiQuery } from '../../../lib/use-api-query';
import { useRequestEvents } from '../../../lib/use-request-events';
import { getAdminDashboard } from '../api/get-admin-dashboard';
import { GroupedRequestTables } from './grouped-request-tables';
import { NewRequestButtons } from './new-request-buttons';
import { RequestCounts } from './request-counts';
import { StaleLettersSection } from '../../stale-letters/stale-letters-section';
import { adminColumns } from './request-columns';
import { RequestTypeFilter } from './request-type-filter';
import { requestTypeLabel } from '../../../lib/request-labels';

type AdminTab = 'credentialing' | 'certificate' | 'drafts';

/** Status headings in lifecycle order, Pending Review (Submitted) first. */
const ADMIN_GROUP_ORDER = [...new Set(ALL_STATUSES.filter((s) => s !== STATUS.draft).map(adminGroupOf))];

export function AdminDashboard() {
  const [tab, setTab] = useState<AdminTab>('credentialing');
  const [filter, setFilter] = useState('');
  const dashboard = useApiQuery((signal) => getAdminDashboard(signal), []);
  useRequestEvents(dashboard.refetch); // new requests, status changes and messages appear without a reload

  const lists = useMemo(() => {
    const rows = (dashboard.data?.adminRequests ?? []).filter((r) => !filter || requestTypeLabel(r) === filter);
    const open = rows.filter((r) => r.status !== STATUS.draft);
    return {
      credentialing: open.filter((r) => r.requestType === 'credentialing'),
      certificate: open.filter((r) => r.requestType === 'certificate'),
      drafts: rows.filter((r) => r.status === STATUS.draft),
    };
  }, [dashboard.data, filter]);

  return (
    <section className="page">
      <h1>Admin Dashboard</h1>
      <NewRequestButtons />
      <RequestTypeFilter value={filter} onChange={setFilter} />
      {dashboard.status === 'loading' && <Loading />}
      {dashboard.status === 'error' && <Alert kind="error">{MESSAGES.dashboardLoadFailed}</Alert>}
      {dashboard.status === 'success' && (
        <>
          <RequestCounts counts={dashboard.data.requestCounts} />
          <StaleLettersSection requests={dashboard.data.staleLetters ?? []} />
          <Tabs label="Requests" active={tab} onChange={setTab} tabs={[
            { id: 'credentialing', label: `Claim History and Insurance Verification Requests (${lists.credentialing.length})` },
            { id: 'certificate', label: `Certificate Requests (${lists.certificate.length})` },
            { id: 'drafts', label: `Draft Requests (${lists.drafts.length})` },
          ]}>
            <GroupedRequestTables requests={lists[tab]} columns={adminColumns(filter)}
              groupOf={tab === 'drafts' ? undefined : (r) => adminGroupOf(r.status)} groupOrder={ADMIN_GROUP_ORDER} />
          </Tabs>
        </>
      )}
    </section>
  );
}
