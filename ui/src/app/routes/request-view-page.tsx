import { useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
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
import { IssuedLettersPanel } from '../../features/certificates/issued-letters-panel';
import { InstantDecisionPanel } from '../../features/instant/instant-decision-panel';
import { useUser } from '../../lib/auth';
import { paths } from '../../lib/paths';
import { getRequest } from '../../lib/request-api';
import { adminEditsInPlace, isOwnRequest } from '../../lib/request-labels';
import { UI_TEXT } from '../../lib/ui-text';
import { queryKeys } from '../../lib/query-keys';
import { useLiveQueries } from '../../lib/use-live-queries';
import type { RequestRecord } from '../../types/api';

type ViewTab = 'details' | 'audit';

/**
 * `/requests/credentialing/:id` and `/requests/certificate/:id`. Requesters see the details and documents;
 * administrators also get Manage Request and the audit trail (composed here so the features stay independent).
 */
export function RequestViewPage({ requestType }: { requestType: 'credentialing' | 'certificate' }) {
  const user = useUser();
  const id = Number(useParams().id);
  const request = useQuery({ queryKey: queryKeys.requests.detail(id), queryFn: ({ signal }) => getRequest(id, signal) });
  const activity = useQuery({
    queryKey: queryKeys.requests.activity(id),
    queryFn: ({ signal }) => getRequestActivity(id, signal),
    enabled: user.isAdmin,
  });
  const [tab, setTab] = useState<ViewTab>('details');
  // A status change, a message, a letter or an email written elsewhere (another administrator, the requester, the
  // workflow after a status change, a wake-up) shows at once: the live event marks both stale.
  useLiveQueries([queryKeys.requests.detail(id), queryKeys.requests.activity(id)], { requestId: id });
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [editSaved, setEditSaved] = useState(false); // Save Successful after an Admin Edit
  const adminEditButton = useRef<HTMLButtonElement>(null);
  // Leaving the in-place edit (Save or Cancel) puts a keyboard user back on Admin Edit, not at the top of the page.
  const stopEditing = () => {
    setEditing(false);
    setTimeout(() => adminEditButton.current?.focus(), 0);
  };

  return (
    <section className="page">
      <h1>{requestType === 'credentialing' ? 'Claim History and Insurance Verification Request' : 'Certificate of Insurance Request'}</h1>
      {request.status === 'pending' && <Loading />}
      {request.status === 'error' && !request.data && <LoadError error={request.error} />}
      {request.data && (
        <>
          <RequestSummary request={request.data} canEdit={isOwnRequest(request.data, user)} adminEditRef={adminEditButton}
            onDeleted={() => navigate(paths.home.getHref(), { state: { tab: 'drafts' } })}
            onAdminEdit={adminEditsInPlace(request.data, user) && !editing
              ? () => { setEditSaved(false); setTab('details'); setEditing(true); } : undefined} />
          <p role="status" className="muted">{editSaved ? UI_TEXT.saveSuccessful : ''}</p>
          {user.isAdmin && <StaleLetterNotice request={request.data} />}
          {user.isAdmin && <ManageRequestPanel request={request.data} onSaved={() => setEditSaved(false)} />}
          {user.isAdmin && request.data.requestType === 'certificate' && <InstantDecisionPanel requestId={id} />}
          {user.isAdmin && <SendEmailButton request={request.data} />}
          <RecentDiscussions request={request.data} isAdmin={user.isAdmin} alwaysShow={user.isAdmin} />
          {user.isAdmin ? (
            <Tabs label="Request" active={tab} onChange={setTab} tabs={[
              { id: 'details', label: 'Request Details' },
              { id: 'audit', label: 'Request Audit Details' },
            ]}>
              {tab === 'details' ? (
                <>
                  {request.data.requestType === 'credentialing' && (
                    <ClaimHistorySection request={request.data} links={request.data.claimHistory ?? []} />
                  )}
                  {editing ? (
                    <AdminEditInPlace request={request.data} onCancel={stopEditing}
                      onSaved={() => { stopEditing(); setEditSaved(true); }} />
                  ) : <RequestDetails request={request.data} isAdmin />}
                </>
              ) : (
                activity.status === 'error' ? <Alert kind="error">{UI_TEXT.activityLoadFailed}</Alert>
                  : activity.data ? <RequestAuditTable activity={activity.data} requestId={id} /> : <Loading />
              )}
            </Tabs>
          ) : <RequestDetails request={request.data} isAdmin={false} />}
        </>
      )}
    </section>
  );
}

export const CredentialingViewPage = () => <RequestViewPage requestType="credentialing" />;
export const CertificateViewPage = () => <RequestViewPage requestType="certificate" />;

function RequestDetails({ request, isAdmin }: { request: RequestRecord; isAdmin: boolean }) {
  return (
    <>
      <DefinitionDetails request={request} isAdmin={isAdmin} />
      <IssuedLettersPanel requestId={request.id} isAdmin={isAdmin} />
      <RequestDocumentsPanel request={request} isAdmin={isAdmin} />
    </>
  );
}
