import { Link } from 'react-router-dom';
import { paths } from '../../../lib/paths';

export function NewRequestButtons() {
  return (
    <div className="button-row">
      <Link className="button" to={paths.credentialing.new.getHref()}>New Claim History and Insurance Verification Request</Link>
      <Link className="button" to={paths.certificate.new.getHref()}>New Certificate of Insurance Request</Link>
      <Link className="button button--secondary" to={paths.rosters.getHref()}>Upload a Roster</Link>
    </div>
  );
}
