import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router-dom';
import { DESK_MESSAGES } from '../../../../domain';
import { Alert } from '../../components/ui/alert';
import { Loading } from '../../components/ui/loading';
import { useUser } from '../../lib/auth';
import { queryKeys } from '../../lib/query-keys';
import { getFaqs } from '../../lib/desk-api';

/** Navigation state of a link to the FAQs from a request form: the requester set is what helps there. */
export interface FaqsState { fromNewRequest?: boolean }

/** `/faqs`: administrators see the administrator set, requesters (and an admin arriving from a new request) the requester set. */
export function FaqsPage() {
  const user = useUser();
  const fromNewRequest = Boolean((useLocation().state as FaqsState | null)?.fromNewRequest);
  const type = user.isAdmin && !fromNewRequest ? 'Admin' : 'Requester';
  const faqs = useQuery({ queryKey: queryKeys.faqs(type), queryFn: ({ signal }) => getFaqs(type, signal) });
  return (
    <section className="page page--narrow">
      <h1>Frequently Asked Questions</h1>
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
