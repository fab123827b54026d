import { MESSAGES } from '../../../../domain';

export function ForbiddenPage() {
  return (
    <section className="page page--narrow">
      <h1>{MESSAGES.forbiddenPage}</h1>
      <p>{MESSAGES.forbiddenPageHelp}</p>
    </section>
  );
}
