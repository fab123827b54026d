import { Link } from 'react-router-dom';
import { CHECKLIST_HEADING } from '../../../../../domain';
import { paths } from '../../../lib/paths';
import type { AdminDashboardData } from '../../../types/api';

type Checklist = AdminDashboardData['beforeFirstCertificate'];

/**
 * What the office must put in place before the first certificate (computed by the server: domain/
 * first-certificate-checklist.ts), shown on the Admin Dashboard until every item is done. Each item says in words
 * whether it is done, so the list reads the same without the marks.
 */
export function FirstCertificateChecklist({ checklist }: { checklist: Checklist }) {
  if (checklist.complete) return null;
  return (
    <section className="first-certificate" aria-labelledby="first-certificate-heading">
      <h2 id="first-certificate-heading">{CHECKLIST_HEADING}</h2>
      <ul className="checklist">
        {checklist.items.map((item) => (
          <li key={item.id} className={`checklist__item checklist__item--${item.done ? 'done' : 'todo'}`}>
            <span className="checklist__mark" aria-hidden="true">{item.done ? '✓' : '!'}</span>
            <div>
              <strong>{item.label}</strong>
              <div className="checklist__detail">
                {item.done ? 'Done: ' : 'To do: '}{item.detail}
                {!item.done && item.id === 'policyYear' && <> <Link to={paths.manage.policies.getHref()}>Enter the policy years</Link></>}
              </div>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
