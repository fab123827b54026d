import { useNavigate } from 'react-router-dom';
import { MESSAGES } from '../../../../domain';

export function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <section className="page page--narrow">
      <h1>{MESSAGES.notFoundPage}</h1>
      <button type="button" className="button" onClick={() => navigate(-1)}>Go back</button>
    </section>
  );
}
