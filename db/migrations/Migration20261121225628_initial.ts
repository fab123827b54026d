import { Migration } from '@mikro-orm/migrations';

export class Migration20261121225628_initial extends Migration {

  override name = 'Migration20261121225628_initial';

  override up(): void | Promise<void> {
    this.addSql(`create table "admins" ("id" serial primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null, "first_name" varchar(255) not null, "last_name" varchar(255) not null, "email" varchar(255) not null);`);
    this.addSql(`alter table "admins" add constraint "admins_email_unique" unique ("email");`);

    this.addSql(`create table "counters" ("name" varchar(255) not null, "last_request_number" int not null, primary key ("name"));`);

    this.addSql(`create table "documents" ("id" serial primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null, "request_id" int not null, "name" varchar(255) not null, "description" varchar(255) null, "stored_name" varchar(255) not null, "mime_type" varchar(255) not null, "size" int not null, "is_attachment" boolean not null default false, "uploaded_by" varchar(255) null, "legacy_id" varchar(255) null, "idempotency_key" varchar(255) null);`);
    this.addSql(`create index "documents_request_id_index" on "documents" ("request_id");`);
    this.addSql(`alter table "documents" add constraint "documents_stored_name_unique" unique ("stored_name");`);
    this.addSql(`alter table "documents" add constraint "documents_idempotency_key_unique" unique ("idempotency_key");`);
    this.addSql(`alter table "documents" add constraint "documents_request_id_name_unique" unique ("request_id", "name");`);

    this.addSql(`create table "email_deliveries" ("id" serial primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null, "idempotency_key" varchar(255) not null, "request_id" int not null, "template_title" varchar(255) not null, "recipients" text not null, "message_id" varchar(255) not null, "sent_at" timestamptz null);`);
    this.addSql(`alter table "email_deliveries" add constraint "email_deliveries_idempotency_key_unique" unique ("idempotency_key");`);
    this.addSql(`create index "email_deliveries_request_id_index" on "email_deliveries" ("request_id");`);

    this.addSql(`create table "email_templates" ("id" serial primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null, "title" varchar(255) not null, "subject" varchar(255) not null, "body" text not null, "order" int not null);`);
    this.addSql(`alter table "email_templates" add constraint "email_templates_title_unique" unique ("title");`);

    this.addSql(`create table "policies" ("id" serial primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null, "start_date" timestamptz not null, "end_date" timestamptz not null, "policy_number" varchar(255) not null, "limit_claim" varchar(255) not null, "annual_aggregate" varchar(255) not null);`);

    this.addSql(`create table "requests" ("id" serial primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null, "request_number" int null, "request_type" varchar(255) not null, "certificate_type" varchar(255) null, "status" varchar(255) not null default 'Draft', "source" varchar(255) not null, "submit_date" timestamptz null, "completed_date" timestamptz null, "requester_id" int not null, "requester_name" varchar(255) null, "requester_last_name" varchar(255) null, "requester_email" varchar(255) null, "requester_phone" varchar(255) null, "requester_company" varchar(255) null, "employer_type" varchar(255) not null, "addl_recipients" varchar(255) null, "recipient_email" varchar(255) null, "internal_notes" text null, "verified" boolean not null default false, "credentialing_company" varchar(255) null, "employee_id" varchar(255) null, "title" varchar(255) null, "last_name" varchar(255) null, "first_name" varchar(255) null, "middle_initial" varchar(255) null, "alt_name" varchar(255) null, "email" varchar(255) null, "birth_date" timestamptz null, "provider_type" varchar(255) null, "reason" varchar(255) null, "reason_other" varchar(255) null, "licensing_state" varchar(255) null, "facility_name" varchar(255) null, "date_from" timestamptz null, "date_to" timestamptz null, "version" int not null default 1);`);
    this.addSql(`alter table "requests" add constraint "requests_request_number_unique" unique ("request_number");`);
    this.addSql(`create index "requests_status_index" on "requests" ("status");`);
    this.addSql(`create index "requests_submit_date_index" on "requests" ("submit_date");`);
    this.addSql(`create index "requests_requester_id_index" on "requests" ("requester_id");`);
    this.addSql(`create index "requests_email_index" on "requests" ("email");`);

    this.addSql(`create table "request_activity" ("id" serial primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null, "request_id" int not null, "date" timestamptz not null, "activity_type" varchar(255) not null, "activity_text" text not null, "performed_by" varchar(255) not null, "recipients" text null, "channel" varchar(255) null, "idempotency_key" varchar(255) null);`);
    this.addSql(`create index "request_activity_request_id_index" on "request_activity" ("request_id");`);
    this.addSql(`alter table "request_activity" add constraint "request_activity_idempotency_key_unique" unique ("idempotency_key");`);

    this.addSql(`create table "users" ("id" serial primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null, "entity_id" varchar(255) null, "affiliation" varchar(255) not null, "person_type" varchar(255) null, "email" varchar(255) not null, "password_hash" varchar(255) null, "first_name" varchar(255) not null, "last_name" varchar(255) not null, "middle_initial" varchar(255) null, "phone" varchar(255) null, "company" varchar(255) null, "is_external" boolean not null default false, "must_change_password" boolean not null default false, "last_login" timestamptz null, "pswd_reset_at" timestamptz null, "deleted_at" timestamptz null);`);
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "admins" cascade;`);
    this.addSql(`drop table if exists "counters" cascade;`);
    this.addSql(`drop table if exists "documents" cascade;`);
    this.addSql(`drop table if exists "email_deliveries" cascade;`);
    this.addSql(`drop table if exists "email_templates" cascade;`);
    this.addSql(`drop table if exists "policies" cascade;`);
    this.addSql(`drop table if exists "requests" cascade;`);
    this.addSql(`drop table if exists "request_activity" cascade;`);
    this.addSql(`drop table if exists "users" cascade;`);
  }

}
