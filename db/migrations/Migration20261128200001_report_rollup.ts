import { Migration } from '@mikro-orm/migrations';

/**
 * The administrators' reports (domain/reports.ts) read a request's history from its audit trail. Three things make
 * that fast at 100,000 requests without reading every audit row on each report:
 *
 * - `request_activity.status_entered`: the status a `Submission` or `Status Change` row records, parsed once from its
 *   text (activities/effects/record-status.ts writes `Request submitted (status "X")` and
 *   `Status changed from "A" to "X"[: reason]`), a stored generated column, so no writer changes.
 * - `request_status_stays`: each stay of a request in a status from its first submission on (entered, left; the last
 *   stay is open), and `request_report_facts`: first submission, the status the history ends in and, when that is a
 *   finished status, when it was entered. Both are rebuilt for a request from its audit rows by a statement trigger
 *   whenever audit rows of that request are added or removed, whatever the order they arrive in, so they are always
 *   what the audit trail says. They go with the request (ON DELETE CASCADE).
 * - indexes for what the reports filter by: periods of first submissions, final statuses, stays, clock events.
 * - `office_calendar_days`: the clocks' business calendar (configuration: zone, office hours, work days, holidays) as
 *   one row per day from 2000 to 2060 with the office seconds before it, so business time between two instants is
 *   two key lookups and a subtraction. Rebuilt by `office_calendar_refresh` when the configuration it was built from
 *   (its signature) differs; the API asks before each report.
 */
export class Migration20261128200001_report_rollup extends Migration {

  override name = 'Migration20261128200001_report_rollup';

  override up(): void | Promise<void> {
    this.addSql(`alter table "request_activity" add column "status_entered" varchar(255) generated always as (case
      when "activity_type" = 'Submission' then substring("activity_text" from '^Request submitted \\(status "([^"]+)"\\)')
      when "activity_type" = 'Status Change' then substring("activity_text" from '^Status changed from "[^"]*" to "([^"]+)"')
    end) stored;`);
    this.addSql(`create index "request_activity_status_rows" on "request_activity" ("request_id", "date", "id") where "status_entered" is not null;`);
    this.addSql(`create index "request_activity_clock_events" on "request_activity" ("date") include ("request_id", "activity_type")
      where "activity_type" in ('Reminder', 'Escalation') or ("activity_type" = 'Status Change' and "activity_text" like '%: closed automatically: %');`);

    this.addSql(`create table "request_status_stays" (
      "request_id" int not null references "requests" ("id") on delete cascade,
      "seq" int not null,
      "status" varchar(255) not null,
      "entered_at" timestamptz not null,
      "left_at" timestamptz null,
      primary key ("request_id", "seq"));`);
    this.addSql(`create index "request_status_stays_entered" on "request_status_stays" ("entered_at") include ("left_at", "status", "request_id");`);
    this.addSql(`create index "request_status_stays_left" on "request_status_stays" ("left_at") include ("entered_at", "status", "request_id");`);
    this.addSql(`create index "request_status_stays_open" on "request_status_stays" ("entered_at") include ("status", "request_id") where "left_at" is null;`);

    // The request's kind as the dashboard's "Filter By Request Type" names it (domain requestFilterOf), kept on the
    // facts so the reports group and filter without reading the requests table; a trigger follows kind changes.
    this.addSql(`create or replace function "report_kind_of"(p_type text, p_certificate text, p_auto text) returns text
      language sql immutable as $$
      select case when p_type = 'credentialing' then 'Claim History and Insurance Verification'
        when p_certificate = 'Auto Liability' and p_auto = 'Rental' then 'COI Request: Rental'
        else 'COI Request: ' || coalesce(p_certificate, '') end $$;`);
    this.addSql(`create table "request_report_facts" (
      "request_id" int primary key references "requests" ("id") on delete cascade,
      "kind" text not null,
      "first_submitted_at" timestamptz not null,
      "last_status" varchar(255) not null,
      "last_status_at" timestamptz not null,
      "finished_at" timestamptz null);`);
    this.addSql(`create index "request_report_facts_first_submitted" on "request_report_facts" ("first_submitted_at") include ("kind", "finished_at", "last_status");`);
    this.addSql(`create index "request_report_facts_finished" on "request_report_facts" ("finished_at") include ("first_submitted_at", "kind") where "finished_at" is not null;`);

    // Rebuilds the stays and facts of the given requests from their audit rows (order: date, then row id). `in (select
    // unnest(ids))`, not `= any(ids)`: a hashed semi-join, where a long array would be searched once per row.
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
    this.addSql(`create trigger "request_activity_report_rollup_insert" after insert on "request_activity" referencing new table as "new_rows"
      for each statement execute function "report_rollup_on_activity"();`);
    this.addSql(`create trigger "request_activity_report_rollup_delete" after delete on "request_activity" referencing old table as "old_rows"
      for each statement execute function "report_rollup_on_activity"();`);
    this.addSql(`create or replace function "report_facts_follow_kind"() returns trigger language plpgsql as $$
      begin
        update "request_report_facts" set "kind" = "report_kind_of"(new."request_type", new."certificate_type", new."auto_type")
          where "request_id" = new."id";
        return null;
      end $$;`);
    this.addSql(`create trigger "requests_report_facts_kind" after update of "request_type", "certificate_type", "auto_type" on "requests"
      for each row when (old."request_type" is distinct from new."request_type" or old."certificate_type" is distinct from new."certificate_type"
        or old."auto_type" is distinct from new."auto_type") execute function "report_facts_follow_kind"();`);
    this.addSql(`create table "office_calendar_days" ("day" date primary key, "business" boolean not null,
      "open_at" timestamptz not null, "close_at" timestamptz not null, "before" float8 not null);`);
    this.addSql(`create table "office_calendar_signature" ("id" int primary key check ("id" = 1), "signature" text not null);`);
    this.addSql(`create or replace function "office_calendar_refresh"(p_signature text, p_zone text, p_work_days int[], p_holidays date[], p_open time, p_close time)
      returns boolean language plpgsql as $$
      begin
        if exists (select 1 from "office_calendar_signature" where "signature" = p_signature) then return false; end if;
        perform pg_advisory_xact_lock(hashtext('office_calendar_days'));
        if exists (select 1 from "office_calendar_signature" where "signature" = p_signature) then return false; end if;
        delete from "office_calendar_days";
        insert into "office_calendar_days" ("day", "business", "open_at", "close_at", "before")
          select "day", "business", "open_at", "close_at",
            coalesce(sum(case when "business" then extract(epoch from "close_at" - "open_at") else 0 end)
              over (order by "day" rows between unbounded preceding and 1 preceding), 0)
          from (select d::date as "day",
                  extract(isodow from d)::int = any(p_work_days) and not d::date = any(p_holidays) as "business",
                  (d::date + p_open) at time zone p_zone as "open_at", (d::date + p_close) at time zone p_zone as "close_at"
                from generate_series(timestamp '2000-01-03', timestamp '2060-12-31', interval '1 day') as d) days;
        insert into "office_calendar_signature" ("id", "signature") values (1, p_signature)
          on conflict ("id") do update set "signature" = excluded."signature";
        analyze "office_calendar_days";
        return true;
      end $$;`);
    // The history already written, 5,000 requests a statement (one call over 100,000 ran for over ten minutes here).
    this.addSql(`analyze "request_activity";`);
    this.addSql(`do $$
      declare
        batch int[];
      begin
        for batch in select array_agg("request_id") from (
            select "request_id", (row_number() over (order by "request_id") - 1) / 5000 as "chunk"
            from (select distinct "request_id" from "request_activity" where "status_entered" is not null) d) c group by "chunk"
        loop
          perform "report_rollup_refresh"(batch);
        end loop;
      end $$;`);
    this.addSql(`analyze "request_status_stays";`);
    this.addSql(`analyze "request_report_facts";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists "request_activity_report_rollup_insert" on "request_activity";`);
    this.addSql(`drop trigger if exists "request_activity_report_rollup_delete" on "request_activity";`);
    this.addSql(`drop function if exists "report_rollup_on_activity"();`);
    this.addSql(`drop function if exists "report_rollup_refresh"(int[]);`);
    this.addSql(`drop function if exists "office_calendar_refresh"(text, text, int[], date[], time, time);`);
    this.addSql(`drop table if exists "office_calendar_signature";`);
    this.addSql(`drop table if exists "office_calendar_days";`);
    this.addSql(`drop trigger if exists "requests_report_facts_kind" on "requests";`);
    this.addSql(`drop function if exists "report_facts_follow_kind"();`);
    this.addSql(`drop table if exists "request_report_facts";`);
    this.addSql(`drop function if exists "report_kind_of"(text, text, text);`);
    this.addSql(`drop table if exists "request_status_stays";`);
    this.addSql(`drop index if exists "request_activity_clock_events";`);
    this.addSql(`drop index if exists "request_activity_status_rows";`);
    this.addSql(`alter table "request_activity" drop column if exists "status_entered";`);
  }
}
