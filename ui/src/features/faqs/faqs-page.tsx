import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { DESK_MESSAGES, type FaqType } from '../../../../domain';
import { Alert } from '../../components/ui/alert';
import { Loading } from '../../components/ui/loading';
import { useUser } from '../../lib/auth';
import { paths } from '../../lib/paths';
import { queryKeys } from '../../lib/query-keys';
import { getFaqs } from './faqs-api';

/**
 * `/faqs`: administrators see the administrator set, requesters the requester set. `?set=Requester` (a request
 * form's help line) shows the requester set to everyone; a requester never gets the administrator set.
 */
export function FaqsPage() {
  const user = useUser();
  const [search] = useSearchParams();
  const type: FaqType = user.isAdmin && search.get('set') !== 'Requester' ? 'Admin' : 'Requester';
  const faqs = useQuery({ queryKey: queryKeys.faqs(type), queryFn: ({ signal }) => getFaqs(type, signal) });
  return (
    <section className="page page--narrow">
      <h1>Frequently Asked Questions</h1>
      {user.isAdmin && type === 'Requester' && (
        <p className="muted">Questions requesters ask. <Link to={paths.faqs.getHref()}>Administrators’ FAQs</Link></p>
      )}
      {faqs.status === 'pending' && <Loading />}
      {faqs.status === 'error' && <Alert kind="error">{DESK_MESSAGES.exportFailed}</Alert>}
      {faqs.data && (faqs.data.length === 0 ? <p className="empty">{DESK_MESSAGES.noFaqs}</p> : (
        <div className="accordion">
          {faqs.data.map((faq) => (
            <details key={faq.id} className="accordion__item">
              <summary>{faq.question}</summary>
              <div className="accordion__answer">{faq.answer}</div>
            </details>
          ))}
        </div>
      ))}
    </section>
  );
}
