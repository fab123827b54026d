import { CREDENTIALING_KIND } from '../../../../../domain';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import { Alert } from '../../../components/ui/alert';
import { Loading } from '../../../components/ui/loading';
import { useUser } from '../../../lib/auth';
import { paths } from '../../../lib/paths';
import { useRequestFormSource } from '../hooks/use-request-form-source';
import { adminEditsInPlace, isEditable } from '../../../lib/request-labels';
import { UI_TEXT } from '../../../lib/ui-text';
import type { RequestRecord } from '../../../types/api';
import { FormDiscussions } from '../../../components/recent-discussions';
import { claimHistoryFollowUp } from '../lib/claim-history-follow-up';
import { RequestForm } from './request-form';
import { LoadError } from './load-error';
import { HelpLine } from './help-line';

/**
 * `/requests/credentialing/new` and `/requests/credentialing/:id/edit`. When the first save creates the draft,
 * the address becomes the edit address without reloading or remounting the form (same key, same record).
 */
export function CredentialingFormPage() {
  const user = useUser();
  const { id } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const { loaded, markCreated } = useRequestFormSource(id, (location.state as { cloneId?: number } | null)?.cloneId);

  const onCreated = (record: RequestRecord) => {
    markCreated(record);
    navigate(paths.credentialing.edit.getHref(record.id), { replace: true, state: null });
  };

  // An administrator edits a submitted request on its view page (Admin Edit: Save and Cancel, no autosave).
  if (loaded.status === 'ready' && loaded.record && adminEditsInPlace(loaded.record, user)) {
    return <Navigate to={paths.credentialing.view.getHref(loaded.record.id)} replace />;
  }

  return (
    <section className="page">
      <h1>Claim History and Insurance Verification Request</h1>
      <HelpLine topic="claim history requests" />
      {loaded.status === 'loading' && <Loading />}
      {loaded.status === 'error' && <LoadError error={loaded.error} />}
      {loaded.status === 'ready' && loaded.record && !isEditable(loaded.record) && (
        <Alert>
          {UI_TEXT.notEditable} <Link to={paths.credentialing.view.getHref(loaded.record.id)}>View the request</Link>
        </Alert>
      )}
      {loaded.status === 'ready' && (!loaded.record || isEditable(loaded.record)) && (
        <>
          {loaded.record?.requestNumber != null && <p className="request-meta">Request Number: {loaded.record.requestNumber}</p>}
          {loaded.record && <FormDiscussions record={loaded.record} isAdmin={user.isAdmin} />}
          <RequestForm key={loaded.key} kind={CREDENTIALING_KIND} createBody={{ requestType: 'credentialing' }} record={loaded.record}
            user={user} initialValues={loaded.cloneFrom} cloneOf={loaded.cloneFrom?.id ?? null}
            onCreated={onCreated} followUpOf={(values) => claimHistoryFollowUp(values, navigate)} />
        </>
      )}
    </section>
  );
}

