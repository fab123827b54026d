import { DESK_MESSAGES } from '../../../../domain';

/** OCA data and milestones: the spec keeps these screens under construction. */
export function UnderConstructionPage({ title }: { title: string }) {
  return (
    <section className="page page--narrow">
      <h1>{title}</h1>
      <p>{DESK_MESSAGES.underConstruction}</p>
    </section>
  );
}
