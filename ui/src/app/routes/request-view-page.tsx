import { useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { Alert } from '../../components/ui/alert';
import { Loading } from '../../components/ui/loading';
import { Tabs } from '../../components/ui/tabs';
import { ManageRequestPanel } from '../../features/admin/components/manage-request-panel';
import { SendEmailButton } from '../../features/admin/components/send-email-dialog';
import { RequestAuditTable } from '../../features/admin/components/request-audit-table';
import { getRequestActivity } from '../../features/admin/api/get-request-activity';
import { DefinitionDetails } from '../../features/requests/components/definition-details';
import { ClaimHistorySection } from '../../features/claims/claim-history-section';
import { RecentDiscussions } from '../../components/recent-discussions';
import { AdminEditInPlace } from '../../features/requests/components/admin-edit-in-place';
import { RequestDocumentsPanel } from '../../features/requests/components/request-documents-panel';
import { LoadError } from '../../features/requests/components/load-error';
import { RequestSummary } from '../../features/requests/components/request-summary';
import { StaleLetterNotice } from '../../features/stale-letters/stale-letter-notice';
import { useUser } from '../../lib/auth';
import { paths } from '../../lib/paths';
import { getRequest } from '../../lib/request-api';
import { isOwnRequest } from '../../lib/request-labels';
import { UI_TEXT } from '../../lib/ui-text';
import { useApiQuery } from '../../lib/use-api-query';
import { usePolling } from '../../lib/use-polling';
import { useRequestEvents } from '../../lib/use-request-events';
import type { RequestRecord } from '../../types/api';

type ViewTab = 'details' | 'audit';

/**
 * `/requests/credentialing/:id` and `/requests/certificate/:id`. Requesters see the details and documents;
 * administrators also get Manage Request and the audit trail (composed here so the features stay independent).
 */
export function RequestViewPage({ requestType }: { requestType: 'credentialing' | 'certificate' }) {
  const user = useUser();
  const id = Number(useParams().id);
  const request = useApiQuery((signal) => getRequest(id, signal), [id]);
  const activity = useApiQuery((signal) => (user.isAdmin ? getRequestActivity(id, signal) : Promise.resolve([])), [id, user.isAdmin]);
  const [tab, setTab] = useState<ViewTab>('details');
  // A status change or a message made elsewhere (another administrator, the requester, a wake-up) shows at once.
  useRequestEvents(() => { request.refetch(); activity.refetch(); }, { requestId: id });
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [editSaved, setEditSaved] = useState(false); // Save Successful after an Admin Edit
  const adminEditButton = useRef<HTMLButtonElement>(null);
  // Leaving the in-place edit (Save or Cancel) puts a keyboard user back on Admin Edit, not at the top of the page.
  const stopEditing = () => {
    setEditing(false);
    setTimeout(() => adminEditButton.current?.focus(), 0);
  };
  const startPolling = usePolling(() => {
    request.refetch();
    activity.refetch();
  });

  const refresh = () => { request.refetch(); activity.refetch(); };

  const onSaved = (updated: RequestRecord, statusChanged: boolean) => {
    // The answer carries the new version at once (the next command is made on it); the PATCH answer has no
    // related lists, so they stay from the page's copy until the refetch brings everything.
    if (request.data) request.setData({ ...request.data, ...updated });
    request.refetch();
    activity.refetch();
    if (statusChanged) startPolling();
  };

  return (
    <section className="page">
      <h1>{requestType === 'credentialing' ? 'Claim History and Insurance Verification Request' : 'Certificate of Insurance Request'}</h1>
      {request.status === 'loading' && <Loading />}
      {request.status === 'error' && !request.data && <LoadError error={request.error} />}
      {request.data && (
        <>
          <RequestSummary request={request.data} canEdit={isOwnRequest(request.data, user)} adminEditRef={adminEditButton}
            onDeleted={() => navigate(paths.home.getHref(), { state: { tab: 'drafts' } })}
            onAdminEdit={user.isAdmin && !editing
              ? () => { setEditSaved(false); setTab('details'); setEditing(true); } : undefined} />
          <p role="status" className="muted">{editSaved ? UI_TEXT.saveSuccessful : ''}</p>
          {user.isAdmin && <StaleLetterNotice request={request.data} />}
          {user.isAdmin && <ManageRequestPanel request={request.data} onSaved={(updated, changed) => { setEditSaved(false); onSaved(updated, changed); }} />}
          {user.isAdmin && <SendEmailButton request={request.data} onSent={() => { activity.refetch(); startPolling(); }} />}
          <RecentDiscussions request={request.data} isAdmin={user.isAdmin} alwaysShow={user.isAdmin}
            onChanged={() => { request.refetch(); activity.refetch(); startPolling(); }} />
          {user.isAdmin ? (
            <Tabs label="Request" active={tab} onChange={setTab} tabs={[
              { id: 'details', label: 'Request Details' },
              { id: 'audit', label: 'Request Audit Details' },
            ]}>
              {tab === 'details' ? (
                <>
                  {request.data.requestType === 'credentialing' && (
                    <ClaimHistorySection request={request.data} links={request.data.claimHistory ?? []} onLinked={request.refetch} />
                  )}
                  {editing ? (
                    <AdminEditInPlace request={request.data} onCancel={stopEditing}
                      onSaved={(updated) => { stopEditing(); setEditSaved(true); onSaved(updated, false); }} />
                  ) : <RequestDetails request={request.data} isAdmin onChanged={refresh} />}
                </>
              ) : (
                activity.status === 'error' ? <Alert kind="error">{UI_TEXT.activityLoadFailed}</Alert>
                  : activity.data ? <RequestAuditTable activity={activity.data} requestId={id} onChanged={activity.refetch} /> : <Loading />
              )}
            </Tabs>
          ) : <RequestDetails request={request.data} isAdmin={false} onChanged={refresh} />}
        </>
      )}
    </section>
  );
}

export const CredentialingViewPage = () => <RequestViewPage requestType="credentialing" />;
export const CertificateViewPage = () => <RequestViewPage requestType="certificate" />;

function RequestDetails({ request, isAdmin, onChanged }: { request: RequestRecord; isAdmin: boolean; onChanged: () => void }) {
  return (
    <>
      <DefinitionDetails request={request} isAdmin={isAdmin} />
      <RequestDocumentsPanel request={request} isAdmin={isAdmin} onChanged={onChanged} />
    </>
  );
}
