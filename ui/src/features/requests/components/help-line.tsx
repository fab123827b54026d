import { Link } from 'react-router-dom';
import { paths } from '../../../lib/paths';
import { officePhone } from '../../../lib/office';

/**
 * The request forms' help line (spec 1 §2 "A help line links to FAQs on certificate requests"; spec 1 §1 {phone}):
 * it opens the requesters' FAQs for everyone, administrators filling a form included (theirs answer other questions).
 */
export function HelpLine({ topic }: { topic: string }) {
  return (
    <p className="help-line">
      Questions? See the <Link to={paths.faqs.getHref('Requester')}>FAQs on {topic}</Link> or call Risk Management at{' '}
      <a className="nowrap" href={`tel:${officePhone().replace(/[^0-9+]/g, '')}`}>{officePhone()}</a>.
    </p>
  );
}
