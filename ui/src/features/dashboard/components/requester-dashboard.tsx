import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { ALL_STATUSES, MESSAGES, REQUESTER_GROUPS, STATUS, requesterGroupOf, type RequesterGroup } from '../../../../../domain';
import { Alert } from '../../../components/ui/alert';
import { Loading } from '../../../components/ui/loading';
import { Tabs } from '../../../components/ui/tabs';
import { useRequestPage, type RequestPage } from '../hooks/use-request-page';
import { NewRequestButtons } from './new-request-buttons';
import { PagedRequestTable } from './paged-request-table';
import { draftColumns, submittedColumns } from './request-columns';
import { RequestTypeFilter } from './request-type-filter';

export type RequesterTab = 'submitted' | 'drafts';
const RENTAL_FILTER = 'COI Request: Rental';

/** The statuses under each heading of the Submitted tab (domain requesterGroupOf). */
const statusesOf = (group: RequesterGroup) => ALL_STATUSES.filter((s) => s !== STATUS.draft && requesterGroupOf(s) === group);
const [NEEDS_INFORMATION, IN_PROGRESS, COMPLETED] = REQUESTER_GROUPS;

/**
 * The requester's own requests: one GET /requests page per heading and one for the drafts (the server limits a
 * requester to their own). Each answer's `total` is its heading's count; the tab counts add them up.
 */
export function RequesterDashboard() {
  const location = useLocation();
  const initialTab = (location.state as { tab?: RequesterTab } | null)?.tab ?? 'submitted';
  const [tab, setTab] = useState<RequesterTab>(initialTab);
  const [filter, setFilter] = useState('');
  // Every list stays loaded whichever tab is open: the tab labels show all the counts.
  const groups: Array<[RequesterGroup, RequestPage]> = [
    [NEEDS_INFORMATION, useRequestPage({ statuses: statusesOf(NEEDS_INFORMATION), requestTypeLabel: filter })],
    [IN_PROGRESS, useRequestPage({ statuses: statusesOf(IN_PROGRESS), requestTypeLabel: filter })],
    [COMPLETED, useRequestPage({ statuses: statusesOf(COMPLETED), requestTypeLabel: filter })],
  ];
  const drafts = useRequestPage({ statuses: [STATUS.draft], requestTypeLabel: filter });
  const pages = [...groups.map(([, page]) => page), drafts];

  const showVin = filter === RENTAL_FILTER;
  const submittedCount = groups.reduce((total, [, page]) => total + (page.data?.total ?? 0), 0);
  const shownGroups = groups.filter(([, page]) => (page.data?.total ?? 0) > 0);
  return (
    <section className="page">
      <h1>Dashboard</h1>
      <NewRequestButtons />
      <RequestTypeFilter value={filter} onChange={setFilter} />
      {pages.some((page) => page.status === 'pending') && <Loading />}
      {pages.some((page) => page.status === 'error') && <Alert kind="error">{MESSAGES.dashboardLoadFailed}</Alert>}
      {pages.every((page) => page.data) && (
        <Tabs label="Requests" active={tab} onChange={setTab} tabs={[
          { id: 'submitted', label: `Submitted Requests (${submittedCount})` },
          { id: 'drafts', label: `Draft Requests (${drafts.data?.total ?? 0})` },
        ]}>
          {tab === 'submitted' && (shownGroups.length === 0
            ? <p className="empty">{MESSAGES.emptyRequests}</p>
            : shownGroups.map(([group, page]) => (
              <PagedRequestTable key={group} page={page} heading={group} label={group} columns={submittedColumns(showVin, filter)} />
            )))}
          {tab === 'drafts' && (drafts.data?.total === 0
            ? <p className="empty">{MESSAGES.emptyRequests}</p>
            : <PagedRequestTable page={drafts} label="Draft Requests" columns={draftColumns(filter)} />)}
        </Tabs>
      )}
    </section>
  );
}
