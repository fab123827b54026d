import { Migration } from '@mikro-orm/migrations';

/**
 * What the clocks and the reports read back is kept in columns, never parsed from audit text; rows that name a user
 * point at it.
 *
 * - `request_clocks`: one row per request that has entered a status, written by the activities that write the audit
 *   rows, in the same statement or transaction: when the current status was entered (workflow time), the reminders
 *   sent and the escalation during that stay, and when the recorded signed release's expiry was acted on. The
 *   release's date and when it was recorded stay on `requests` (the administrators' data). No pause is kept: the
 *   only pause of the rules (Submitted's clock while the request waits on the requester) starts again from zero at
 *   the next submission, which `status_entered_at` already says.
 * - `request_activity.status_from` / `status_to`: the change a `Submission` or `Status Change` row records (the
 *   reports' roll-up reads `status_to` instead of a column generated from the text), and `clock`: the clock that
 *   made the row (`reminder-1`, `reminder-2`, `escalation`, `auto-close`, `release-expiry`), null for people's rows.
 * - `…_user_id` beside the names kept for display (`request_activity.performed_by`, `discussions.sender`,
 *   `documents.uploaded_by`, `request_exports.created_by`): the user, when known; ON DELETE SET NULL so the history
 *   keeps the name of a user who is gone. Foreign keys on the columns that already hold user ids.
 *
 * The existing rows are filled from the audit text once, here. Filling them rewrites most audit rows: the reports'
 * index-only scans read the heap again until (auto)vacuum has passed over `request_activity` (minutes after).
 */
export class Migration20261129100001_state_in_columns extends Migration {

  override name = 'Migration20261129100001_state_in_columns';

  override up(): void | Promise<void> {
    this.addSql(`alter table "request_activity" add column "status_from" varchar(255) null, add column "status_to" varchar(255) null,
      add column "clock" varchar(32) null, add column "performed_by_user_id" int null references "users" ("id") on update cascade on delete set null;`);
    this.addSql(`update "request_activity" a set "status_to" = a."status_entered",
      "status_from" = case when a."activity_type" = 'Status Change' then substring(a."activity_text" from '^Status changed from "([^"]*)" to ') end
      where a."status_entered" is not null;`);
    // A submission's text does not say what it left: the status the row before it entered (a first one leaves Draft).
    this.addSql(`update "request_activity" a set "status_from" = p."previous"
      from (select "id", coalesce(lag("status_to") over (partition by "request_id" order by "date", "id"), 'Draft') as "previous"
            from "request_activity" where "status_to" is not null) p
      where a."id" = p."id" and a."activity_type" = 'Submission';`);
    this.addSql(`update "request_activity" set "clock" = case
        when "activity_type" = 'Reminder' then case when "activity_text" like 'Reminder 2 %' then 'reminder-2' else 'reminder-1' end
        when "activity_type" = 'Escalation' then 'escalation'
        when "activity_type" = 'Status Change' and "activity_text" like '%: closed automatically: %' then 'auto-close'
        when "activity_text" like '%a new signed release was requested%' then 'release-expiry' end
      where "activity_type" in ('Reminder', 'Escalation') or "activity_text" like '%: closed automatically: %'
        or "activity_text" like '%a new signed release was requested%';`);

    // The roll-up reads the columns (same behaviour: rows that record a status, in date then id order).
    this.addSql(`create or replace function "report_rollup_refresh"(ids int[]) returns void language sql as $$
      delete from "request_status_stays" where "request_id" in (select unnest(ids));
      delete from "request_report_facts" where "request_id" in (select unnest(ids));
      insert into "request_status_stays" ("request_id", "seq", "status", "entered_at", "left_at")
        select "request_id", row_number() over w, "status_to", "date", lead("date") over w
        from (select a.*, min(a."date") filter (where a."activity_type" = 'Submission') over (partition by a."request_id") as "first_submit"
              from "request_activity" a
              where a."request_id" in (select unnest(ids)) and a."status_to" is not null) h
        where h."first_submit" is not null and h."date" >= h."first_submit"
        window w as (partition by "request_id" order by "date", "id");
      insert into "request_report_facts" ("request_id", "kind", "first_submitted_at", "last_status", "last_status_at", "finished_at")
        select distinct on (s."request_id") s."request_id", "report_kind_of"(r."request_type", r."certificate_type", r."auto_type"),
          first."entered_at", s."status", s."entered_at",
          case when s."status" in ('Approved', 'Approved with Letter of Intent', 'Denied', 'Closed') then s."entered_at" end
        from "request_status_stays" s
        join "request_status_stays" first on first."request_id" = s."request_id" and first."seq" = 1
        join "requests" r on r."id" = s."request_id"
        where s."request_id" in (select unnest(ids))
        order by s."request_id", s."seq" desc;
    $$;`);
    this.addSql(`create or replace function "report_rollup_on_activity"() returns trigger language plpgsql as $$
      declare
        ids int[];
      begin
        if tg_op = 'DELETE' then
          select array_agg(distinct "request_id") into ids from old_rows where "status_to" is not null;
        else
          select array_agg(distinct "request_id") into ids from new_rows where "status_to" is not null;
        end if;
        if ids is not null then perform "report_rollup_refresh"(ids); end if;
        return null;
      end $$;`);
    this.addSql(`drop index if exists "request_activity_status_rows";`);
    this.addSql(`drop index if exists "request_activity_clock_events";`);
    this.addSql(`alter table "request_activity" drop column "status_entered";`);
    this.addSql(`create index "request_activity_status_rows" on "request_activity" ("request_id", "date", "id") where "status_to" is not null;`);
    this.addSql(`create index "request_activity_clock_events" on "request_activity" ("date") include ("request_id", "activity_type", "clock")
      where "clock" in ('reminder-1', 'reminder-2', 'escalation', 'auto-close');`);

    this.addSql(`create table "request_clocks" (
      "request_id" int primary key references "requests" ("id") on update cascade on delete cascade,
      "status_entered_at" timestamptz not null,
      "reminders_sent" smallint not null default 0 check ("reminders_sent" between 0 and 2),
      "escalated_at" timestamptz null,
      "release_expiry_handled_at" timestamptz null);`);
    this.addSql(`insert into "request_clocks" ("request_id", "status_entered_at", "reminders_sent", "escalated_at", "release_expiry_handled_at")
      select r."id", lc."date",
        least(2, (select count(*) from "request_activity" a where a."request_id" = r."id" and a."clock" in ('reminder-1', 'reminder-2') and a."date" >= lc."date")),
        (select max(a."date") from "request_activity" a where a."request_id" = r."id" and a."clock" = 'escalation' and a."date" >= lc."date"),
        (select max(a."date") from "request_activity" a where a."request_id" = r."id" and a."clock" = 'release-expiry'
          and r."signed_release_recorded_at" is not null and a."date" >= r."signed_release_recorded_at")
      from "requests" r
      join lateral (select a."date" from "request_activity" a where a."request_id" = r."id" and a."status_to" is not null
        order by a."date" desc, a."id" desc limit 1) lc on true;`);

    // Names kept for display, and the user beside them when one is known (an address that names one user).
    this.addSql(`alter table "discussions" add column "sender_user_id" int null references "users" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "documents" add column "uploaded_by_user_id" int null references "users" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "request_exports" add column "created_by_user_id" int null references "users" ("id") on update cascade on delete set null;`);
    this.addSql(`update "discussions" d set "sender_user_id" = u."id"
      from (select lower("email") as "email", min("id") as "id" from "users" group by 1 having count(*) = 1) u
      where u."email" = lower(d."sender_email");`);
    for (const [table, column] of [['discussions', 'sender_user_id'], ['documents', 'uploaded_by_user_id'], ['request_exports', 'created_by_user_id'], ['request_activity', 'performed_by_user_id']]) {
      this.addSql(`create index "${table}_${column}_index" on "${table}" ("${column}") where "${column}" is not null;`);
    }

    // Columns that already hold a user id. A user is deactivated, never deleted, by the portal: a user's requests and
    // uploads keep the user (RESTRICT), the user's one-time links and upload slots go with it (CASCADE), the security
    // log keeps the address it names (SET NULL). Ids that name no user (rows older than the keys) are cleared where the
    // column may be empty; elsewhere the key is added NOT VALID (new rows are checked) and validated when none is left.
    this.addSql(`update "security_events" e set "user_id" = null where "user_id" is not null and not exists (select 1 from "users" u where u."id" = e."user_id");`);
    this.addSql(`delete from "password_resets" t where not exists (select 1 from "users" u where u."id" = t."user_id");`);
    this.addSql(`delete from "email_confirmations" t where not exists (select 1 from "users" u where u."id" = t."user_id");`);
    this.addSql(`delete from "upload_slots" t where not exists (select 1 from "users" u where u."id" = t."user_id");`);
    const keys: Array<[string, string, string]> = [
      ['requests', 'requester_id', 'restrict'], ['uploads', 'user_id', 'restrict'],
      ['password_resets', 'user_id', 'cascade'], ['email_confirmations', 'user_id', 'cascade'], ['upload_slots', 'user_id', 'cascade'],
      ['security_events', 'user_id', 'set null'],
    ];
    for (const [table, column, onDelete] of keys) {
      const name = `${table}_${column}_foreign`;
      this.addSql(`alter table "${table}" add constraint "${name}" foreign key ("${column}") references "users" ("id") on update cascade on delete ${onDelete} not valid;`);
      this.addSql(`do $$ begin
        if not exists (select 1 from "${table}" t where t."${column}" is not null and not exists (select 1 from "users" u where u."id" = t."${column}")) then
          alter table "${table}" validate constraint "${name}";
        end if;
      end $$;`);
    }
    this.addSql(`analyze "request_activity";`);
    this.addSql(`analyze "request_clocks";`);
  }

  override down(): void | Promise<void> {
    for (const [table, column] of [['requests', 'requester_id'], ['uploads', 'user_id'], ['password_resets', 'user_id'],
      ['email_confirmations', 'user_id'], ['upload_slots', 'user_id'], ['security_events', 'user_id']]) {
      this.addSql(`alter table "${table}" drop constraint if exists "${table}_${column}_foreign";`);
    }
    this.addSql(`alter table "discussions" drop column if exists "sender_user_id";`);
    this.addSql(`alter table "documents" drop column if exists "uploaded_by_user_id";`);
    this.addSql(`alter table "request_exports" drop column if exists "created_by_user_id";`);
    this.addSql(`drop table if exists "request_clocks";`);
    this.addSql(`drop index if exists "request_activity_clock_events";`);
    this.addSql(`drop index if exists "request_activity_status_rows";`);
    this.addSql(`alter table "request_activity" add column "status_entered" varchar(255) generated always as (case
      when "activity_type" = 'Submission' then substring("activity_text" from '^Request submitted \\(status "([^"]+)"\\)')
      when "activity_type" = 'Status Change' then substring("activity_text" from '^Status changed from "[^"]*" to "([^"]+)"')
    end) stored;`);
    this.addSql(`create or replace function "report_rollup_on_activity"() returns trigger language plpgsql as $$
      declare
        ids int[];
      begin
        if tg_op = 'DELETE' then
          select array_agg(distinct "request_id") into ids from old_rows where "status_entered" is not null;
        else
          select array_agg(distinct "request_id") into ids from new_rows where "status_entered" is not null;
        end if;
        if ids is not null then perform "report_rollup_refresh"(ids); end if;
        return null;
      end $$;`);
    this.addSql(`create or replace function "report_rollup_refresh"(ids int[]) returns void language sql as $$
      delete from "request_status_stays" where "request_id" in (select unnest(ids));
      delete from "request_report_facts" where "request_id" in (select unnest(ids));
      insert into "request_status_stays" ("request_id", "seq", "status", "entered_at", "left_at")
        select "request_id", row_number() over w, "status_entered", "date", lead("date") over w
        from (select a.*, min(a."date") filter (where a."activity_type" = 'Submission') over (partition by a."request_id") as "first_submit"
              from "request_activity" a
              where a."request_id" in (select unnest(ids)) and a."status_entered" is not null) h
        where h."first_submit" is not null and h."date" >= h."first_submit"
        window w as (partition by "request_id" order by "date", "id");
      insert into "request_report_facts" ("request_id", "kind", "first_submitted_at", "last_status", "last_status_at", "finished_at")
        select distinct on (s."request_id") s."request_id", "report_kind_of"(r."request_type", r."certificate_type", r."auto_type"),
          first."entered_at", s."status", s."entered_at",
          case when s."status" in ('Approved', 'Approved with Letter of Intent', 'Denied', 'Closed') then s."entered_at" end
        from "request_status_stays" s
        join "request_status_stays" first on first."request_id" = s."request_id" and first."seq" = 1
        join "requests" r on r."id" = s."request_id"
        where s."request_id" in (select unnest(ids))
        order by s."request_id", s."seq" desc;
    $$;`);
    this.addSql(`create index "request_activity_status_rows" on "request_activity" ("request_id", "date", "id") where "status_entered" is not null;`);
    this.addSql(`create index "request_activity_clock_events" on "request_activity" ("date") include ("request_id", "activity_type")
      where "activity_type" in ('Reminder', 'Escalation') or ("activity_type" = 'Status Change' and "activity_text" like '%: closed automatically: %');`);
    this.addSql(`alter table "request_activity" drop column if exists "status_from", drop column if exists "status_to",
      drop column if exists "clock", drop column if exists "performed_by_user_id";`);
  }
}
