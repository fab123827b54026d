import { Migration } from '@mikro-orm/migrations';

/**
 * Hardening: the request remembers the last command its workflow applied; additional recipients get
 * the width their limit allows; every email and letter of a request is an effect row holding the snapshot it is
 * rendered from and its delivery state (replacing email_deliveries).
 */
export class Migration20261122023000_commands_and_effects extends Migration {

  override name = 'Migration20261122023000_commands_and_effects';

  override up(): void | Promise<void> {
    this.addSql(`alter table "requests" add column "last_command_id" varchar(255) null;`);
    this.addSql(`alter table "requests" alter column "addl_recipients" type varchar(1000);`);

    this.addSql(`create table "request_effects" ("id" serial primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null, "idempotency_key" varchar(255) not null, "request_id" int not null, "kind" varchar(32) not null, "template_title" varchar(255) not null, "snapshot" jsonb not null, "state" varchar(16) not null default 'pending', "recipients" text null, "message_id" varchar(255) null, "letter_document_id" int null, "claimed_at" timestamptz null, "sent_at" timestamptz null, "failed_at" timestamptz null, "failure" text null, "retry_of" int null);`);
    this.addSql(`alter table "request_effects" add constraint "request_effects_idempotency_key_unique" unique ("idempotency_key");`);
    this.addSql(`create index "request_effects_request_id_state_index" on "request_effects" ("request_id", "state");`);
    this.addSql(`alter table "request_activity" add column "effect_id" int null;`);

    this.addSql(`drop table if exists "email_deliveries" cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "request_activity" drop column "effect_id";`);
    this.addSql(`drop table if exists "request_effects" cascade;`);
    this.addSql(`alter table "requests" alter column "addl_recipients" type varchar(255);`);
    this.addSql(`alter table "requests" drop column "last_command_id";`);
    this.addSql(`create table "email_deliveries" ("id" serial primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null, "idempotency_key" varchar(255) not null, "request_id" int not null, "template_title" varchar(255) not null, "recipients" text not null, "message_id" varchar(255) not null, "sent_at" timestamptz null);`);
    this.addSql(`alter table "email_deliveries" add constraint "email_deliveries_idempotency_key_unique" unique ("idempotency_key");`);
  }

}
