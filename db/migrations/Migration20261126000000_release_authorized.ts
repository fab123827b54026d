import { Migration } from '@mikro-orm/migrations';

/**
 * The claim-history form's Authorization section: the requester confirms that the clinician
 * authorized the release of their claim history. Requests submitted before the section existed could only be
 * submitted with the signed release (or dated letter) attached, which is what the box confirms: they count as
 * confirmed, so an administrator's edit of one is not refused for a box its requester was never shown. Drafts stay
 * unconfirmed until their requester ticks it.
 */
export class Migration20261126000000_release_authorized extends Migration {

  override name = 'Migration20261126000000_release_authorized';

  override up(): void | Promise<void> {
    this.addSql(`alter table "requests" add column if not exists "release_authorized" boolean null;`);
    this.addSql(`update "requests" set "release_authorized" = true where "request_type" = 'credentialing' and "submit_date" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "requests" drop column if exists "release_authorized";`);
  }
}
