import type { User } from '../../../types/api';

/** Read-only: the signed-in user who fills out the form. */
export function PersonFillingSection({ user }: { user: User }) {
  return (
    <section className="form-section" aria-labelledby="person-filling-heading">
      <h2 id="person-filling-heading" className="form-section__title">Person Filling Out Form</h2>
      <dl className="details details--compact">
        <div><dt>Name</dt><dd>{[user.firstName, user.lastName].filter(Boolean).join(' ') || '—'}</dd></div>
        <div><dt>Email</dt><dd>{user.email}</dd></div>
        <div><dt>Phone</dt><dd>{user.phone || '—'}</dd></div>
      </dl>
    </section>
  );
}
