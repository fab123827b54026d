import { Migration } from '@mikro-orm/migrations';

/**
 * Real foreign keys from every child table of a request to `requests`. The entities keep their
 * scalar `requestId` properties (no ORM relations): like the hand-written indexes, these keys live in migrations only,
 * and a generated migration must not drop them.
 *
 * Orphans first. Only one path ever deleted requests: deleting a never-submitted draft, which until then left its
 * children behind. A child row whose request is gone therefore belonged to a deleted draft, which its requester threw
 * away with everything attached (spec 2 §7.3): such rows are deleted, not kept. Rows that only mention a request
 * (a clone's source, an upload's request) lose the mention instead. A deleted orphan document's bytes stay on disk
 * unless an `uploads` row names them: then housekeeping removes them a day later, as for any upload no document took.
 *
 * On delete, per key:
 * - request_activity: RESTRICT. The audit trail is never deleted as a side effect: a request with audit rows cannot be
 *   deleted until its rows are removed on purpose, which only the delete-draft path does (services/requests/request-commands.ts).
 *   A submitted request always has audit rows, so a stray `delete from requests` cannot take a trail with it.
 * - request_effects: RESTRICT. An effect is an email (or letter) owed or the record of one sent, with its snapshot:
 *   losing one silently would lose a notice. The delete-draft path removes a draft's effects itself.
 * - documents: RESTRICT. Each row owns a file on disk; a cascade would remove the row and leave the bytes behind. The
 *   delete-draft path removes rows and files together.
 * - discussions: RESTRICT. Messages are kept even when "deleted" (an administrator's delete sets `deleted_at`).
 * - claim_history: CASCADE. The links are a copy of claims data that belongs to this request alone (no file, no audit
 *   of its own; linking is audited in request_activity), replaced wholesale on every link: they go with the request.
 * - uploads: SET NULL. The register counts a user's upload bytes per day and finds bytes no document took up; it must
 *   outlive the draft, or deleting a draft would hand back upload quota and hide unclaimed files from housekeeping.
 * - requests.cloned_from_id: SET NULL. A clone is a request of its own; losing its source (only completed requests are
 *   cloned, and those are never deleted) must neither block the delete nor remove the clone.
 *
 * Not keyed: request_activity.effect_id, request_effects.retry_of and letter_document_id point between children (and a
 * letter may be removed by an administrator after the email that carried it); claim_history.claim_id keeps a copy
 * that outlives the claims row by design.
 */
export class Migration20261126040000_request_foreign_keys extends Migration {

  override name = 'Migration20261126040000_request_foreign_keys';

  override up(): void | Promise<void> {
    const orphanOf = (table: string) => `delete from "${table}" c where not exists (select 1 from "requests" r where r."id" = c."request_id");`;
    for (const table of ['request_activity', 'request_effects', 'documents', 'discussions', 'claim_history']) this.addSql(orphanOf(table));
    this.addSql(`update "requests" c set "cloned_from_id" = null where "cloned_from_id" is not null and not exists (select 1 from "requests" r where r."id" = c."cloned_from_id");`);
    this.addSql(`alter table "uploads" alter column "request_id" drop not null;`);
    this.addSql(`update "uploads" c set "request_id" = null where not exists (select 1 from "requests" r where r."id" = c."request_id");`);

    const key = (table: string, column: string, onDelete: string) =>
      `alter table "${table}" add constraint "${table}_${column}_foreign" foreign key ("${column}") references "requests" ("id") on update cascade on delete ${onDelete};`;
    this.addSql(key('request_activity', 'request_id', 'restrict'));
    this.addSql(key('request_effects', 'request_id', 'restrict'));
    this.addSql(key('documents', 'request_id', 'restrict'));
    this.addSql(key('discussions', 'request_id', 'restrict'));
    this.addSql(key('claim_history', 'request_id', 'cascade'));
    this.addSql(key('uploads', 'request_id', 'set null'));
    this.addSql(key('requests', 'cloned_from_id', 'set null'));
    // The other children's request_id is indexed already; without these, every request delete would scan both tables.
    this.addSql(`create index if not exists "uploads_request_id_index" on "uploads" ("request_id") where "request_id" is not null;`);
    this.addSql(`create index if not exists "requests_cloned_from_id_index" on "requests" ("cloned_from_id") where "cloned_from_id" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "requests_cloned_from_id_index";`);
    this.addSql(`drop index if exists "uploads_request_id_index";`);
    for (const [table, column] of [
      ['requests', 'cloned_from_id'], ['uploads', 'request_id'], ['claim_history', 'request_id'], ['discussions', 'request_id'],
      ['documents', 'request_id'], ['request_effects', 'request_id'], ['request_activity', 'request_id'],
    ]) this.addSql(`alter table "${table}" drop constraint if exists "${table}_${column}_foreign";`);
    // uploads.request_id stays nullable: rows written since may hold null, and a guessed request would be a lie.
  }
}
