import { UI_TEXT } from '../lib/ui-text';

/** Placeholder for a screen of the route table that is not built yet (no fake data). */
export function LaterReleasePage({ title }: { title: string }) {
  return (
    <section className="page page--narrow">
      <h1>{title}</h1>
      <p>{UI_TEXT.laterRelease}</p>
    </section>
  );
}
