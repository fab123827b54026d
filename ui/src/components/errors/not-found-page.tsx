import { useNavigate } from 'react-router-dom';
import { MESSAGES } from '../../../../domain';
import { paths } from '../../lib/paths';

/** react-router keeps its own history index in `history.state.idx`: 0 means this page was opened directly. */
const hasPreviousPage = () => ((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0;

export function NotFoundPage() {
  const navigate = useNavigate();
  // Go back leaves the portal when the address was typed or bookmarked; then it goes to the start page instead.
  const goBack = () => (hasPreviousPage() ? navigate(-1) : navigate(paths.home.getHref()));
  return (
    <section className="page page--narrow">
      <h1>{MESSAGES.notFoundPage}</h1>
      <button type="button" className="button" onClick={goBack}>Go back</button>
    </section>
  );
}
