import { Migration } from '@mikro-orm/migrations';

/**
 * University single sign-on: AuthnRequest ids awaiting their answer and accepted assertion ids, kept until
 * they expire, so a SAML answer is taken once even with several API processes.
 */
export class Migration20261122060000_saml_sign_on extends Migration {

  override name = 'Migration20261122060000_saml_sign_on';

  override up(): void | Promise<void> {
    this.addSql(`create table "saml_message_ids" ("key" varchar(255) not null primary key, "value" varchar(255) not null, "created_at" timestamptz not null, "expires_at" timestamptz not null);`);
    this.addSql(`create index "saml_message_ids_expires_at_index" on "saml_message_ids" ("expires_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "saml_message_ids" cascade;`);
  }
}
