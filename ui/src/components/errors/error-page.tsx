import { useRouteError } from 'react-router-dom';
import { MESSAGES } from '../../../../domain';

/** Router error boundary: anything a screen throws while rendering lands here. */
export function ErrorPage() {
  const error = useRouteError();
  if (error) console.error(error);
  return (
    <section className="page page--narrow" role="alert">
      <h1>{MESSAGES.errorPage}</h1>
      <p>{MESSAGES.genericPageError}</p>
      <button type="button" className="button" onClick={() => window.location.reload()}>Refresh</button>
    </section>
  );
}
