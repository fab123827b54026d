import { useState } from 'react';
import { CREDENTIALING_KIND } from '../../../../../domain';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import { Alert } from '../../../components/ui/alert';
import { Loading } from '../../../components/ui/loading';
import { ApiError } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { paths } from '../../../lib/paths';
import { queryKeys } from '../../../lib/query-keys';
import { getRequest } from '../../../lib/request-api';
import { useFirstFetch } from '../../../lib/use-first-fetch';
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
 * the address becomes the edit address without reloading or remounting the form (same key, same record).
 */
export function CredentialingFormPage() {
  const user = useUser();
  const { id } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  // The draft the first save created (and the clone it came from): its edit address keeps the form as it is.
  const [created, setCreated] = useState<{ id: number; cloneId?: number } | null>(null);

  const navCloneId = (location.state as { cloneId?: number } | null)?.cloneId;
  const justCreated = !!id && Number(id) === created?.id;
  const cloneId = justCreated ? created.cloneId : navCloneId;
  const editing = !!id && !justCreated;
  const wanted = editing ? Number(id) : cloneId || undefined;
  // Read once per screen (useFirstFetch): a refetch of this request must not reset or remount the form.
  const source = useFirstFetch({
    queryKey: queryKeys.requests.detail(wanted ?? 0),
    queryFn: ({ signal }) => getRequest(wanted!, signal),
    enabled: wanted !== undefined,
  });
  let loaded: Loaded;
  if (wanted === undefined) loaded = { status: 'ready', record: null, key: 'new' };
  else if (source.status !== 'ready') loaded = source;
  else if (editing) loaded = { status: 'ready', record: source.data, key: String(source.data.id) };
  else loaded = { status: 'ready', record: null, key: `clone-${source.data.id}`, cloneFrom: source.data };

  const onCreated = (record: RequestRecord) => {
    setCreated({ id: record.id, cloneId });
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

