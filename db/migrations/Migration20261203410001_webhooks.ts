import { Migration } from '@mikro-orm/migrations';

/**
 * Webhooks (domain/webhooks.ts): the endpoints an account registers, the deliveries each event owes them (written by
 * the trigger `webhook_deliveries_fan_out` in the event's own transaction, Migration20261203410003) and every
 * attempt of a delivery. A delivery's workflow is started once (`workflow_started_at`); the partial index finds the
 * ones the worker has not started yet.
 *
 * The secrets are kept as the receiver holds them: a webhook is signed with the key itself (HMAC), so a hash would
 * not do; only the owner ever sees one, once, when it is made.
 */
export class Migration20261203410001_webhooks extends Migration {

  override name = 'Migration20261203410001_webhooks';

  override up(): void | Promise<void> {
    this.addSql(`create table "webhook_endpoints" (
      "id" serial primary key,
      "owner_id" int not null references "users" ("id") on delete cascade,
      "url" varchar(2000) not null,
      "events" text[] not null check (cardinality("events") > 0),
      "description" varchar(200) null,
      "secret" varchar(100) not null,
      "previous_secret" varchar(100) null,
      "previous_secret_until" timestamptz null,
      "failing_since" timestamptz null,
      "disabled_at" timestamptz null,
      "disabled_reason" text null,
      "disabled_emailed_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now()
    );`);
    this.addSql(`create index "webhook_endpoints_owner_index" on "webhook_endpoints" ("owner_id");`);
    this.addSql(`create table "webhook_deliveries" (
      "id" bigserial primary key,
      "endpoint_id" int not null references "webhook_endpoints" ("id") on delete cascade,
      "event_type" varchar(40) not null,
      "request_id" int not null references "requests" ("id") on delete cascade,
      "data" jsonb not null,
      "resend_of" bigint null references "webhook_deliveries" ("id") on delete set null,
      "status" varchar(16) not null default 'pending' check ("status" in ('pending', 'delivered', 'failed')),
      "attempts" int not null default 0,
      "last_status_code" int null,
      "last_error" text null,
      "last_attempt_at" timestamptz null,
      "delivered_at" timestamptz null,
      "workflow_started_at" timestamptz null,
      "created_at" timestamptz not null default now()
    );`);
    this.addSql(`create index "webhook_deliveries_endpoint_index" on "webhook_deliveries" ("endpoint_id", "id" desc);`);
    this.addSql(`create index "webhook_deliveries_unstarted_index" on "webhook_deliveries" ("id") where "workflow_started_at" is null;`);
    this.addSql(`create index "webhook_deliveries_request_index" on "webhook_deliveries" ("request_id");`);
    this.addSql(`create table "webhook_attempts" (
      "id" bigserial primary key,
      "delivery_id" bigint not null references "webhook_deliveries" ("id") on delete cascade,
      "attempt" int not null,
      "at" timestamptz not null,
      "duration_ms" int not null,
      "status_code" int null,
      "error" text null
    );`);
    this.addSql(`create index "webhook_attempts_delivery_index" on "webhook_attempts" ("delivery_id", "attempt");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "webhook_attempts";`);
    this.addSql(`drop table if exists "webhook_deliveries";`);
    this.addSql(`drop table if exists "webhook_endpoints";`);
  }
}
