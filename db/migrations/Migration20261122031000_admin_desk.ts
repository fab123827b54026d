import { Migration } from '@mikro-orm/migrations';

/**
 * The administrators' desk: FAQs, CS-STARS claims data, claim-history links, exports, the vehicle and
 * driver columns the admin search reads, and the indexes that keep search and lists fast at 100,000 requests:
 * trigram (pg_trgm) indexes for the contains-matching name, company and email filters, and expression indexes
 * for VIN and plate numbers with dashes and spaces removed.
 */
export class Migration20261122031000_admin_desk extends Migration {

  override name = 'Migration20261122031000_admin_desk';

  override up(): void | Promise<void> {
    this.addSql(`create extension if not exists pg_trgm;`);

    this.addSql(`create table "faqs" ("id" serial primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null, "type" varchar(16) not null, "question" varchar(120) not null, "answer" text not null, "order" int not null);`);
    this.addSql(`create index "faqs_type_order_index" on "faqs" ("type", "order");`);
    this.addSql(`create unique index "faqs_type_question_unique" on "faqs" ("type", lower("question"));`);

    this.addSql(`create table "claims_data" ("id" serial primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null, "export_date" timestamptz not null, "physician_last_name" varchar(255) not null, "physician_first_name" varchar(255) not null, "physician_middle_initial" varchar(1) not null default '', "involvement" varchar(255) not null, "claim_number" varchar(255) not null, "type" varchar(255) not null, "status" varchar(255) not null, "outcome" varchar(255) not null default '', "claim_date" timestamptz not null, "report_date" timestamptz not null, "indemnity_paid" numeric(15,2) not null, "description" text not null default '');`);
    this.addSql(`create unique index "claims_data_claim_key" on "claims_data" ("claim_number", "physician_last_name", "physician_first_name", "physician_middle_initial");`);
    this.addSql(`create index "claims_data_report_date_index" on "claims_data" ("report_date" desc, "id" desc);`);
    // No name index: the claim search reads at most one request's names over ~100k rows (a scan of a few ms), and
    // every index here is paid for by each upload's 100k-row merge.

    this.addSql(`create table "claim_history" ("id" serial primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null, "request_id" int not null, "claim_id" int null, "physician" varchar(255) not null, "physician_last_name" varchar(255) null, "physician_first_name" varchar(255) null, "physician_middle_initial" varchar(255) null, "involvement" varchar(255) null, "claim_number" varchar(255) null, "report_date" timestamptz null, "indemnity_paid" varchar(255) null);`);
    this.addSql(`create index "claim_history_request_id_index" on "claim_history" ("request_id");`);

    this.addSql(`create table "request_exports" ("id" serial primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null, "filename" varchar(255) not null, "stored_name" varchar(255) not null, "state" varchar(16) not null default 'running', "date_from" timestamptz null, "date_to" timestamptz null, "filter_by_type" varchar(255) null, "rows_total" int not null default 0, "rows_written" int not null default 0, "size" int null, "created_by" varchar(255) not null, "failure" text null);`);
    this.addSql(`alter table "request_exports" add constraint "request_exports_stored_name_unique" unique ("stored_name");`);

    this.addSql(`alter table "requests" add column if not exists "auto_type" varchar(255) null, add column if not exists "driver_name" varchar(255) null, add column if not exists "plate_number" varchar(255) null, add column if not exists "vehicle_id_number" varchar(255) null;`);
    for (const column of ['last_name', 'requester_last_name', 'requester_company', 'requester_email', 'driver_name']) {
      this.addSql(`create index if not exists "requests_${column}_trgm" on "requests" using gin ("${column}" gin_trgm_ops);`);
    }
    this.addSql(`create index if not exists "requests_vin_normalized_trgm" on "requests" using gin ((upper(regexp_replace("vehicle_id_number", '[-\\s]', '', 'g'))) gin_trgm_ops);`);
    this.addSql(`create index if not exists "requests_plate_normalized_trgm" on "requests" using gin ((upper(regexp_replace("plate_number", '[-\\s]', '', 'g'))) gin_trgm_ops);`);
    this.addSql(`create index if not exists "requests_submitted_order" on "requests" ("submit_date" desc, "id" desc) where "status" <> 'Draft';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "requests_submitted_order";`);
    this.addSql(`drop index if exists "requests_plate_normalized_trgm";`);
    this.addSql(`drop index if exists "requests_vin_normalized_trgm";`);
    for (const column of ['last_name', 'requester_last_name', 'requester_company', 'requester_email', 'driver_name']) {
      this.addSql(`drop index if exists "requests_${column}_trgm";`);
    }
    this.addSql(`alter table "requests" drop column if exists "auto_type", drop column if exists "driver_name", drop column if exists "plate_number", drop column if exists "vehicle_id_number";`);
    this.addSql(`drop table if exists "request_exports" cascade;`);
    this.addSql(`drop table if exists "claim_history" cascade;`);
    this.addSql(`drop table if exists "claims_data" cascade;`);
    this.addSql(`drop table if exists "faqs" cascade;`);
  }

}
