import {
  fieldsOf, formatTimeOfDay, isShown, requestKindOf, type FieldDefinition, type RequestFormValues,
} from '../../../../../domain';
import { displayDate } from '../../../lib/format';
import type { RequestRecord } from '../../../types/api';
import { recordToValues } from '../lib/form-values';

const EMPLOYMENT_STATUS: Record<string, string> = { A: 'Active', T: 'Terminated' };

/**
 * Every entered value of a request (claim history or certificate), by the sections of its kind's definition and with
 * the definition's labels (fields of choices not taken are left out), then the requester.
 */
export function DefinitionDetails({ request, isAdmin }: { request: RequestRecord; isAdmin: boolean }) {
  const kind = requestKindOf(request.requestType, request.certificateType);
  const values: RequestFormValues = recordToValues(request, kind);
  const ctx = { isExternal: request.employerType === 'external', isAdmin };
  const date = (iso: string | null | undefined) => (iso ? displayDate(iso) : null);
  const shown = (f: FieldDefinition, v: RequestFormValues[string]) =>
    (typeof v === 'boolean' ? (v ? 'Yes' : 'No') : f.kind === 'time' && v ? formatTimeOfDay(v) : v);
  // A kind that offers a choice of role shows it with its person; the others name their one role here.
  const roleInSection = fieldsOf(kind).some((f) => f.name === 'personRole');
  return (
    <div className="details-grid">
      {request.requestType === 'certificate' && (
        <section className="details-section">
          <h3 className="details-section__title">Certificate</h3>
          <dl className="details">
            <div><dt>Certificate Type</dt><dd>{request.certificateType}</dd></div>
            {request.personRole && !roleInSection && <div><dt>Person Role</dt><dd>{request.personRole}</dd></div>}
          </dl>
        </section>
      )}
      {kind.sections.map((section) => {
        const fields = section.fields.filter((f) => isShown(f, values, ctx) && (values[f.name] !== undefined || !f.visibleWhen));
        const unique = fields.filter((f, i) => fields.findIndex((g) => g.name === f.name) === i);
        if (unique.length === 0) return null;
        return (
          <section key={section.title} className="details-section">
            <h3 className="details-section__title">{section.title}</h3>
            <dl className="details">
              {unique.map((f) => <div key={f.name}><dt>{f.label}</dt><dd>{shown(f, values[f.name]) || '—'}</dd></div>)}
            </dl>
          </section>
        );
      })}
      {isAdmin && (request.hireDate || request.employmentStatus) && (
        // What the directory said of the person picked by employee id when the request was saved (spec 1 §3).
        <section className="details-section">
          <h3 className="details-section__title">Directory</h3>
          <dl className="details">
            <div><dt>Hire Date</dt><dd>{date(request.hireDate) || '—'}</dd></div>
            <div><dt>Employment Status</dt><dd>{EMPLOYMENT_STATUS[request.employmentStatus ?? ''] ?? request.employmentStatus ?? '—'}</dd></div>
            <div><dt>Termination Date</dt><dd>{date(request.terminationDate) || '—'}</dd></div>
          </dl>
        </section>
      )}
      <section className="details-section">
        <h3 className="details-section__title">Requester</h3>
        <dl className="details">
          <div><dt>Name</dt><dd>{request.requesterName || '—'}</dd></div>
          <div><dt>Email</dt><dd>{request.requesterEmail || '—'}</dd></div>
          <div><dt>Phone</dt><dd>{request.requesterPhone || '—'}</dd></div>
          <div><dt>Company</dt><dd>{request.requesterCompany || '—'}</dd></div>
          <div><dt>Submission Date</dt><dd>{date(request.submitDate) || '—'}</dd></div>
          <div><dt>Completion Date</dt><dd>{date(request.completedDate) || '—'}</dd></div>
        </dl>
      </section>
    </div>
  );
}
