import { Migration } from '@mikro-orm/migrations';

/**
 * How many attempts handed an email to the mail server without living to mark it sent: each
 * attempt counts its claim before the SMTP call, so the audit row of an email sent again inside that window says how
 * many times it may have gone out ("possibly 3 times"), not always "twice". Claims made before: one each.
 */
export class Migration20261126030000_effect_claims extends Migration {

  override name = 'Migration20261126030000_effect_claims';

  override up(): void | Promise<void> {
    this.addSql(`alter table "request_effects" add column if not exists "claims" int not null default 0;`);
    this.addSql(`update "request_effects" set "claims" = 1 where "claimed_at" is not null and "claims" = 0;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "request_effects" drop column if exists "claims";`);
  }
}
