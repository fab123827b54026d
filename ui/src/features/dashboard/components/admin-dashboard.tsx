import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router-dom';
import { ALL_STATUSES, MESSAGES, STATUS, adminGroupOf, type RequestStatus } from '../../../../../domain';
import { Alert } from '../../../components/ui/alert';
import { Loading } from '../../../components/ui/loading';
import { Tabs } from '../../../components/ui/tabs';
import { useUser } from '../../../lib/auth';
import { paths } from '../../../lib/paths';
import { queryKeys } from '../../../lib/query-keys';
import { useLiveQueries } from '../../../lib/use-live-queries';
import type { QueueCount } from '../../../types/api';
import { getAdminDashboard } from '../api/get-admin-dashboard';
import type { RequestListFilter } from '../api/get-requests';
import { useRequestPage } from '../hooks/use-request-page';
import { FirstCertificateChecklist } from './first-certificate-checklist';
import { NewRequestButtons } from './new-request-buttons';
import { PagedRequestTable } from './paged-request-table';
import { RequestCounts } from './request-counts';
import { StaleLettersSection } from './stale-letters-section';
import { adminColumns } from './request-columns';
import { RequestTypeFilter } from './request-type-filter';

type AdminTab = 'credentialing' | 'certificate' | 'drafts';
type QueueType = Exclude<AdminTab, 'drafts'>;

/** Status headings in lifecycle order, Pending Review (Submitted) first. */
const ADMIN_GROUP_ORDER = [...new Set(ALL_STATUSES.filter((s) => s !== STATUS.draft).map(adminGroupOf))];

const sum = (rows: readonly QueueCount[]) => rows.reduce((total, row) => total + row.count, 0);

interface QueueGroup { name: string; statuses: RequestStatus[]; count: number }

/** The headings of one tab with their statuses and counts, from the database's GROUP BY; empty groups left out. */
function queueGroups(counts: readonly QueueCount[], requestType: QueueType): QueueGroup[] {
  const open = counts.filter((row) => row.requestType === requestType && row.status !== STATUS.draft && row.count > 0);
  return ADMIN_GROUP_ORDER.map((name) => {
    const rows = open.filter((row) => adminGroupOf(row.status) === name);
    return { name, statuses: rows.map((row) => row.status), count: sum(rows) };
  }).filter((group) => group.count > 0);
}

/**
 * The administrators' work queue. The counts come from GET /admin-dashboard (computed by the database); each group's
 * table loads one page of GET /requests, so the page stays the same size at 100,000 requests.
 */
export function AdminDashboard() {
  const user = useUser();
  // Back from deleting one's own draft: its tab.
  const [tab, setTab] = useState<AdminTab>((useLocation().state as { tab?: string } | null)?.tab === 'drafts' ? 'drafts' : 'credentialing');
  const [filter, setFilter] = useState('');
  const dashboardKey = queryKeys.adminDashboard(filter);
  const dashboard = useQuery({ queryKey: dashboardKey, queryFn: ({ signal }) => getAdminDashboard(filter, signal) });
  useLiveQueries([dashboardKey]); // new requests, status changes and messages appear without a reload

  const counts = dashboard.data?.queueCounts ?? [];
  // A deleted draft sends no live event: the delete marks the tables and the tab counts stale itself.
  const columns = adminColumns(filter, user.id);
  return (
    <section className="page">
      <h1>Admin Dashboard</h1>
      <NewRequestButtons />
      <RequestTypeFilter value={filter} onChange={setFilter} />
      {dashboard.status === 'pending' && <Loading />}
      {dashboard.status === 'error' && <Alert kind="error">{MESSAGES.dashboardLoadFailed}</Alert>}
      {dashboard.data && (
        <>
          <FirstCertificateChecklist checklist={dashboard.data.beforeFirstCertificate} />
          <RequestCounts counts={dashboard.data.requestCounts} />
          {dashboard.data.emailProblems > 0 && (
            <Alert kind="error">
              {`${dashboard.data.emailProblems} email${dashboard.data.emailProblems === 1 ? '' : 's'} or letter${dashboard.data.emailProblems === 1 ? '' : 's'} not sent. `}
              <Link to={paths.manage.emailProblems.getHref()}>Review emails not sent</Link>
            </Alert>
          )}
          <StaleLettersSection requests={dashboard.data.staleLetters} total={dashboard.data.staleLettersTotal} />
          <Tabs label="Requests" active={tab} onChange={setTab} tabs={[
            { id: 'credentialing', label: `Claim History and Insurance Verification Requests (${sum(counts.filter((c) => c.requestType === 'credentialing' && c.status !== STATUS.draft))})` },
            { id: 'certificate', label: `Certificate Requests (${sum(counts.filter((c) => c.requestType === 'certificate' && c.status !== STATUS.draft))})` },
            { id: 'drafts', label: `Draft Requests (${sum(counts.filter((c) => c.status === STATUS.draft))})` },
          ]}>
            {tab === 'drafts'
              ? <AdminTable filter={{ statuses: [STATUS.draft], requestTypeLabel: filter }} columns={columns} label="Draft Requests" />
              : <QueueTab groups={queueGroups(counts, tab)} requestType={tab} filter={filter} columns={columns} />}
          </Tabs>
        </>
      )}
    </section>
  );
}

type Columns = ReturnType<typeof adminColumns>;

function QueueTab({ groups, requestType, filter, columns }: {
  groups: QueueGroup[]; requestType: QueueType; filter: string; columns: Columns;
}) {
  if (groups.length === 0) return <p className="empty">{MESSAGES.emptyRequests}</p>;
  return groups.map((group) => (
    <AdminTable key={`${requestType}:${group.name}`} heading={group.name} label={group.name} columns={columns}
      filter={{ requestType, statuses: group.statuses, requestTypeLabel: filter }} />
  ));
}

function AdminTable({ filter, columns, heading, label }: {
  filter: RequestListFilter; columns: Columns; heading?: string; label: string;
}) {
  const page = useRequestPage(filter);
  if (page.status === 'error') return <Alert kind="error">{MESSAGES.dashboardLoadFailed}</Alert>;
  if (page.data?.total === 0) return <p className="empty">{MESSAGES.emptyRequests}</p>;
  return <PagedRequestTable page={page} columns={columns} heading={heading} label={label} />;
}
