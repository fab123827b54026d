import { Link } from 'react-router-dom';
import { Alert } from '../../components/ui/alert';
import { paths } from '../../lib/paths';

/** Why no run can start (usually: the new policy year is not on record yet), with the way to the page that fixes it. */
export function RefusalBanner({ refusal }: { refusal: string }) {
  return (
    <Alert kind="error">
      <p className="alert__text"><strong>{refusal}</strong></p>
      <Link to={paths.manage.policies.getHref()}>Go to Manage &gt; Policies</Link>
    </Alert>
  );
}
