import { Migration } from '@mikro-orm/migrations';

/**
 * Documents remember whether an administrator added them: a requester may no longer remove those, nor
 * the letters the portal generated (rows with an idempotency key).
 */
export class Migration20261122061000_document_origin extends Migration {

  override name = 'Migration20261122061000_document_origin';

  override up(): void | Promise<void> {
    this.addSql(`alter table "documents" add column if not exists "added_by_admin" boolean not null default false;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "documents" drop column if exists "added_by_admin";`);
  }

}
