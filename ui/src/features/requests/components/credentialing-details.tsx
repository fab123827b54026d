import { LICENSING_REASON } from '../../../../../domain';
import { displayDate } from '../../../lib/format';
import type { RequestRecord } from '../../../types/api';

type Row = [label: string, value: string | null | undefined];

function DetailList({ title, rows }: { title: string; rows: Row[] }) {
  return (
    <section className="details-section">
      <h2 className="details-section__title">{title}</h2>
      <dl className="details">
        {rows.map(([label, value]) => (
          <div key={label}><dt>{label}</dt><dd>{value || '—'}</dd></div>
        ))}
      </dl>
    </section>
  );
}

/** Every field of a credentialing request, dates as MM/dd/yyyy. */
export function CredentialingDetails({ request }: { request: RequestRecord }) {
  const date = (iso: string | null | undefined) => (iso ? displayDate(iso) : null);
  return (
    <div className="details-grid">
      <DetailList title="Clinician Information" rows={[
        ['Last Name', request.lastName],
        ['First Name', request.firstName],
        ['Middle Initial', request.middleInitial],
        ['Previous/Alternate Name', request.altName],
        ['Email', request.email],
        ['Birth Date', date(request.birthDate)],
      ]} />
      <DetailList title="Request Information" rows={[
        ['Request Start Date', date(request.dateFrom)],
        ['Request End Date', date(request.dateTo)],
        ['Provider Type', request.providerType],
        ['Reason', request.reason],
        ...(request.reason === LICENSING_REASON ? [['State', request.licensingState] as Row] : []),
        ['Requesting Facility', request.facilityName],
      ]} />
      <DetailList title="Request Recipient" rows={[['Email Address of Recipient if NOT the Requester', request.recipientEmail]]} />
      <DetailList title="Requester" rows={[
        ['Name', request.requesterName],
        ['Email', request.requesterEmail],
        ['Phone', request.requesterPhone],
        ['Company', request.requesterCompany],
        ['Submission Date', date(request.submitDate)],
        ['Completion Date', date(request.completedDate)],
      ]} />
    </div>
  );
}
