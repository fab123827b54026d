import { Migration } from '@mikro-orm/migrations';

/** Discussions: messages of a request, in threads; a delete keeps the row (`deleted_at`). */
export class Migration20261122040000_discussions extends Migration {

  override name = 'Migration20261122040000_discussions';

  override up(): void | Promise<void> {
    this.addSql(`create table if not exists "discussions" ("id" serial primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null, "request_id" int not null, "discussion_id" varchar(32) not null, "sender" varchar(255) not null, "sender_email" varchar(255) not null, "from_admin" boolean not null default false, "topic" varchar(255) not null, "message" text not null, "deleted_at" timestamptz null);`);
    this.addSql(`create index if not exists "discussions_request_id_index" on "discussions" ("request_id");`);
    this.addSql(`create index if not exists "discussions_discussion_id_index" on "discussions" ("discussion_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "discussions" cascade;`);
  }

}
