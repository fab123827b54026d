import { Migration } from '@mikro-orm/migrations';

/**
 * Answers by email.
 *
 * - `inbound_messages`: every message the SMTP listener or the mailbox poller received, written (with its raw bytes
 *   on disk under `stored_name`) before the sender is told "accepted" or the mailbox message is flagged. `dedup_key`
 *   (a hash of the Message-ID, or of the bytes when there is none) is unique: the same message delivered twice is one
 *   row and one processing workflow. `state`: received (not yet processed), posted, refused, ignored. The partial
 *   index finds what a restart must still process. `answer_to`/`answer_sent_at`: the one answer to a refused sender
 *   (at most one an hour per address, so a robot that ignores Auto-Submitted cannot start a loop).
 * - `discussions.by_email`, `discussions.inbound_message_id`: a message that arrived by email is marked as such, and
 *   one received message makes at most one discussion row.
 */
export class Migration20261128310001_inbound_mail extends Migration {

  override name = 'Migration20261128310001_inbound_mail';

  override up(): void | Promise<void> {
    this.addSql(`create table "inbound_messages" (
      "id" serial primary key,
      "dedup_key" varchar(64) not null,
      "message_id" text null,
      "received_at" timestamptz not null default now(),
      "source" varchar(8) not null,
      "envelope_from" text null,
      "envelope_to" text not null,
      "size" bigint not null,
      "stored_name" text null,
      "state" varchar(16) not null default 'received',
      "outcome" text null,
      "request_id" int null,
      "discussion_id" int null,
      "answer_sent_at" timestamptz null,
      "answer_to" text null,
      "processed_at" timestamptz null,
      constraint "inbound_messages_dedup_key_unique" unique ("dedup_key"));`);
    this.addSql(`create index "inbound_messages_unprocessed_index" on "inbound_messages" ("id") where "state" = 'received';`);
    this.addSql(`create index "inbound_messages_received_at_index" on "inbound_messages" ("received_at");`);
    this.addSql(`create index "inbound_messages_answer_to_index" on "inbound_messages" ("answer_to", "answer_sent_at") where "answer_to" is not null;`);
    this.addSql(`alter table "discussions" add column "by_email" boolean not null default false, add column "inbound_message_id" int null;`);
    this.addSql(`create unique index "discussions_inbound_message_id_unique" on "discussions" ("inbound_message_id") where "inbound_message_id" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "discussions_inbound_message_id_unique";`);
    this.addSql(`alter table "discussions" drop column if exists "by_email", drop column if exists "inbound_message_id";`);
    this.addSql(`drop table if exists "inbound_messages";`);
  }
}
