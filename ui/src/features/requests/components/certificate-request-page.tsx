import { useState } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import { CERTIFICATE_TYPES, CONTRACTS_CERTIFICATE, isCertificateType, isFinished, requestKindOf, type CertificateType } from '../../../../../domain';
import { Alert } from '../../../components/ui/alert';
import { SelectField } from '../../../components/ui/form-field';
import { Loading } from '../../../components/ui/loading';
import { useUser } from '../../../lib/auth';
import { paths } from '../../../lib/paths';
import { useRequestFormSource } from '../hooks/use-request-form-source';
import { adminEditsInPlace, isEditable } from '../../../lib/request-labels';
import { UI_TEXT } from '../../../lib/ui-text';
import type { RequestRecord } from '../../../types/api';
import { FormDiscussions } from '../../../components/recent-discussions';
import { RequestForm } from './request-form';
import { LoadError } from './load-error';
import { HelpLine } from './help-line';

/** Navigation state: Clone (`cloneId`) or a follow-up from a credentialing request (`certificateType` + `prefill`). */
export interface CertificateNavState { cloneId?: number; certificateType?: CertificateType; prefill?: Record<string, unknown> }

/**
 * `/requests/certificate/new` and `/requests/certificate/:id/edit`. External requesters get the Clinician form
 * (the type is set for them); others choose the subtype first. The subtype is fixed once the draft exists.
 */
export function CertificateRequestPage() {
  const user = useUser();
  const { id } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const nav = (location.state ?? {}) as CertificateNavState;
  const [chosenType, setChosenType] = useState<CertificateType | ''>(user.isExternal ? 'Clinician' : nav.certificateType ?? '');
  // The follow-up's values, kept past the address change that drops the navigation state.
  const [prefill] = useState<Record<string, unknown> | null>(nav.prefill ?? null);
  const { loaded, created, markCreated } = useRequestFormSource(id, nav.cloneId);
  // A clone: a new draft with the form values, without documents, status or dates (and the source's subtype).
  const cloneFrom = loaded.status === 'ready' ? loaded.cloneFrom ?? null : null;
  const initialValues = cloneFrom ?? prefill;
  const shownType = cloneFrom && isCertificateType(cloneFrom.certificateType) ? cloneFrom.certificateType : chosenType;

  const onCreated = (record: RequestRecord) => {
    markCreated(record);
    navigate(paths.certificate.edit.getHref(record.id), { replace: true, state: null });
  };

  const record = loaded.status === 'ready' ? loaded.record : null;
  const type = (record?.certificateType as CertificateType | undefined) ?? (shownType || null);
  // Requesters edit while the lifecycle allows; administrators until the request is finished.
  const editable = !record || (user.isAdmin ? !isFinished(record.status) : isEditable(record));
  // An administrator edits a submitted request on its view page (Admin Edit: Save and Cancel, no autosave).
  if (record && editable && adminEditsInPlace(record, user)) return <Navigate to={paths.certificate.view.getHref(record.id)} replace />;

  return (
    <section className="page">
      <h1>Certificate of Insurance Request</h1>
      <HelpLine topic="certificate requests" />
      {loaded.status === 'loading' && <Loading />}
      {loaded.status === 'error' && <LoadError error={loaded.error} />}
      {record && !editable && (
        <Alert>{UI_TEXT.notEditable} <Link to={paths.certificate.view.getHref(record.id)}>View the request</Link></Alert>
      )}
      {loaded.status === 'ready' && editable && (
        <>
          {(record ?? created)?.requestNumber != null && (
            <p className="request-meta request-meta--spaced">Request Number: {(record ?? created)!.requestNumber} · {(record ?? created)!.certificateType}</p>
          )}
          {record && <FormDiscussions record={record} isAdmin={user.isAdmin} />}
          {!record && !created && !user.isExternal && (
            <div className="form-section">
              <SelectField name="certificateType" label="Certificate Type" required options={CERTIFICATE_TYPES} value={shownType}
                onChange={(e) => setChosenType(e.target.value as CertificateType | '')} disabled={!!nav.cloneId} />
            </div>
          )}
          {!record && !created && user.isExternal && <p className="request-meta">Certificate Type: Clinician</p>}
          {type && (
            <RequestForm key={`${loaded.key}:${type}`} kind={requestKindOf('certificate', type)}
              createBody={{ requestType: 'certificate', certificateType: type }} record={record} user={user}
              initialValues={initialValues} cloneOf={nav.cloneId ?? null} onCreated={onCreated}
              followUpOf={type === CONTRACTS_CERTIFICATE && !user.isExternal ? () => ({
                // A submitted contracts/lease certificate asks about a claim history request as well (spec 1 §1).
                question: 'Do you also need a Claim History and Insurance Verification request?', yesLabel: 'Start a claim history request',
                onYes: () => navigate(paths.credentialing.new.getHref()),
              }) : undefined} />
          )}
          {!type && <p>Choose the type of certificate to see its form.</p>}
        </>
      )}
    </section>
  );
}
