import { useEffect, useRef, useState } from 'react';
import { CREDENTIALING_KIND } from '../../../../../domain';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import { Alert } from '../../../components/ui/alert';
import { Loading } from '../../../components/ui/loading';
import { ApiError } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { paths } from '../../../lib/paths';
import { getRequest } from '../../../lib/request-api';
import { adminEditsInPlace, isEditable } from '../../../lib/request-labels';
import { UI_TEXT } from '../../../lib/ui-text';
import type { RequestRecord } from '../../../types/api';
import { FormDiscussions } from '../../../components/recent-discussions';
import { claimHistoryFollowUp } from '../lib/claim-history-follow-up';
import { RequestForm } from './request-form';
import { LoadError } from './load-error';
import { HelpLine } from './help-line';

type Loaded =
  | { status: 'loading' }
  | { status: 'ready'; record: RequestRecord | null; key: string; cloneFrom?: RequestRecord }
  | { status: 'error'; error: ApiError };

/**
 * `/requests/credentialing/new` and `/requests/credentialing/:id/edit`. When the first save creates the draft,
 * the address becomes the edit address without reloading the form.
 */
export function CredentialingFormPage() {
  const user = useUser();
  const { id } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const createdId = useRef<number | null>(null);

  const cloneId = (location.state as { cloneId?: number } | null)?.cloneId;
  useEffect(() => {
    if (!id && !cloneId) {
      setLoaded({ status: 'ready', record: null, key: 'new' });
      return;
    }
    if (id && Number(id) === createdId.current) return;
    const controller = new AbortController();
    setLoaded({ status: 'loading' });
    getRequest(Number(id ?? cloneId), controller.signal).then(
      (record) => setLoaded(id ? { status: 'ready', record, key: String(record.id) } : { status: 'ready', record: null, key: `clone-${record.id}`, cloneFrom: record }),
      (error) => !controller.signal.aborted && setLoaded({ status: 'error', error: error instanceof ApiError ? error : new ApiError(500) }),
    );
    return () => controller.abort();
  }, [id, cloneId]);

  const onCreated = (record: RequestRecord) => {
    createdId.current = record.id;
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
            user={user} initialValues={loaded.cloneFrom as Record<string, unknown> | undefined} cloneOf={loaded.cloneFrom?.id ?? null}
            onCreated={onCreated} followUpOf={(values) => claimHistoryFollowUp(values, navigate)} />
        </>
      )}
    </section>
  );
}

