import { Migration } from '@mikro-orm/migrations';

/**
 * The SQL functions `requests_stamp_status_change`, `notify_request_event`, `notify_request_activity_event`,
 * `request_counts_apply`, `request_counts_truncate`, `reserve_upload_slot`, `record_security_refusal`,
 * `prune_security_events`, `report_kind_of`, `report_rollup_refresh`, `report_rollup_on_activity`,
 * `report_facts_follow_kind`, `office_calendar_refresh` as db/sql-functions.ts renders them on 2026-11-29: written
 * by `npm run migration:sql-functions`. Change the functions there, never here: a migration keeps the text it was
 * written with, so history replays as it ran.
 *
 * Every SQL function of the portal, re-created from the one source that renders the rules they share with domain/
 * (the finished statuses, the audit kind of a submission, the kind of a request, the office calendar's days, the
 * refusal codes and security-log kinds). The same behaviour, but for `report_kind_of`, which now names a request as
 * domain requestTypeLabelOf does in the two cases it did not: a certificate request without a certificate type
 * ("Certificate of Insurance", was "COI Request: ") and a request type other than the two (the type itself, was
 * "COI Request: …"). Neither can be submitted, so no report changes.
 */
export class Migration20261201100002_sql_functions_from_domain extends Migration {

  override name = 'Migration20261201100002_sql_functions_from_domain';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function "requests_stamp_status_change"() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' or new."status" is distinct from old."status" then
    new."status_changed_at" := clock_timestamp();
  end if;
  return new;
end $$;`);
    this.addSql(`create or replace function "notify_request_event"() returns trigger language plpgsql as $$
declare
  request_row record;
begin
  if tg_table_name = 'requests' then
    if tg_op = 'UPDATE' and new."status" is not distinct from old."status" then return null; end if;
    perform pg_notify('request_events', json_build_object(
      'kind', case when tg_op = 'INSERT' then 'created' else 'status' end,
      'requestId', new."id", 'requesterId', new."requester_id", 'email', new."email")::text);
  else
    select "requester_id", "email" into request_row from "requests" where "id" = new."request_id";
    perform pg_notify('request_events', json_build_object(
      'kind', 'message', 'requestId', new."request_id", 'requesterId', request_row."requester_id", 'email', request_row."email")::text);
  end if;
  return null;
end $$;`);
    this.addSql(`create or replace function "notify_request_activity_event"() returns trigger language plpgsql as $$
declare
  request_row record;
begin
  select "requester_id", "email" into request_row from "requests" where "id" = new."request_id";
  perform pg_notify('request_events', json_build_object(
    'kind', 'activity', 'requestId', new."request_id", 'requesterId', request_row."requester_id", 'email', request_row."email")::text);
  return null;
end $$;`);
    this.addSql(`create or replace function "request_counts_apply"() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into "request_counts" as c ("request_type", "certificate_type", "auto_type", "status", "n")
          select "request_type", "certificate_type", "auto_type", "status", sum("d") from (select "request_type", "certificate_type", "auto_type", "status", 1 as "d" from "new_rows") as delta
          group by 1, 2, 3, 4 having sum("d") <> 0 order by 1, 2, 3, 4
          on conflict on constraint "request_counts_key" do update set "n" = c."n" + excluded."n";
          insert into "request_submission_days" as c ("day", "n")
          select "day", sum("d") from (select ("submit_date" at time zone 'UTC')::date as "day", 1 as "d" from "new_rows") as delta where "day" is not null
          group by 1 having sum("d") <> 0 order by 1
          on conflict ("day") do update set "n" = c."n" + excluded."n";
        elsif tg_op = 'DELETE' then
          insert into "request_counts" as c ("request_type", "certificate_type", "auto_type", "status", "n")
          select "request_type", "certificate_type", "auto_type", "status", sum("d") from (select "request_type", "certificate_type", "auto_type", "status", -1 as "d" from "old_rows") as delta
          group by 1, 2, 3, 4 having sum("d") <> 0 order by 1, 2, 3, 4
          on conflict on constraint "request_counts_key" do update set "n" = c."n" + excluded."n";
          insert into "request_submission_days" as c ("day", "n")
          select "day", sum("d") from (select ("submit_date" at time zone 'UTC')::date as "day", -1 as "d" from "old_rows") as delta where "day" is not null
          group by 1 having sum("d") <> 0 order by 1
          on conflict ("day") do update set "n" = c."n" + excluded."n";
        else
          insert into "request_counts" as c ("request_type", "certificate_type", "auto_type", "status", "n")
          select "request_type", "certificate_type", "auto_type", "status", sum("d") from (select "request_type", "certificate_type", "auto_type", "status", -1 as "d" from "old_rows" union all select "request_type", "certificate_type", "auto_type", "status", 1 as "d" from "new_rows") as delta
          group by 1, 2, 3, 4 having sum("d") <> 0 order by 1, 2, 3, 4
          on conflict on constraint "request_counts_key" do update set "n" = c."n" + excluded."n";
          insert into "request_submission_days" as c ("day", "n")
          select "day", sum("d") from (select ("submit_date" at time zone 'UTC')::date as "day", -1 as "d" from "old_rows" union all select ("submit_date" at time zone 'UTC')::date as "day", 1 as "d" from "new_rows") as delta where "day" is not null
          group by 1 having sum("d") <> 0 order by 1
          on conflict ("day") do update set "n" = c."n" + excluded."n";
        end if;
        return null;
      end $$;`);
    this.addSql(`create or replace function "request_counts_truncate"() returns trigger language plpgsql as $$
      begin delete from "request_counts"; delete from "request_submission_days"; return null; end $$;`);
    this.addSql(`create or replace function "reserve_upload_slot"(slot_id uuid, for_user int, reserve_bytes bigint, byte_limit bigint, window_ms bigint, at_once int, ttl_ms bigint)
      returns table (refusal text, held_bytes bigint)
      language plpgsql volatile as $fn$
      declare
        in_progress int;
        held bigint;
      begin
        perform pg_advisory_xact_lock(160031, for_user);
        -- Places that ran out no longer count; housekeeping removes them with their partial files.
        select count(*), coalesce(sum(s."bytes"), 0) into in_progress, held from "upload_slots" s
          where s."user_id" = for_user and s."expires_at" > now();
        if in_progress >= at_once then
          return query select 'uploadsAtOnce'::text, held;
          return;
        end if;
        if byte_limit is not null then
          held := held + (select coalesce(sum(u."size"), 0) from "uploads" u
            where u."user_id" = for_user and u."created_at" > now() - window_ms * interval '1 millisecond');
          if held >= byte_limit or held + reserve_bytes > byte_limit then
            return query select 'uploadBytesPerDay'::text, held;
            return;
          end if;
        end if;
        insert into "upload_slots" ("id", "user_id", "bytes", "expires_at")
          values (slot_id, for_user, reserve_bytes, now() + ttl_ms * interval '1 millisecond');
        return query select null::text, held;
      end
      $fn$;`);
    this.addSql(`create or replace function record_security_refusal(p_kind text, p_user_id integer, p_email text, p_ip text, p_detail jsonb) returns void
      language plpgsql security definer set search_path = public, pg_temp as $$
      declare
        line jsonb := coalesce(p_detail, '{}'::jsonb) || jsonb_build_object('repeats', 1, 'minute', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI'));
      begin
        if p_kind = 'accessRefused' then
          insert into "security_events" ("kind", "user_id", "email", "ip", "detail") values (p_kind, p_user_id, p_email, p_ip, line)
          on conflict (coalesce("user_id", 0), coalesce("ip", ''), ("detail"->>'route'), ("detail"->>'minute')) where "kind" = 'accessRefused'
          do update set "detail" = jsonb_set("security_events"."detail", '{repeats}', to_jsonb(coalesce(("security_events"."detail"->>'repeats')::int, 1) + 1));
        elsif p_kind = 'singleSignOnRefused' then
          insert into "security_events" ("kind", "user_id", "email", "ip", "detail") values (p_kind, p_user_id, p_email, p_ip, line)
          on conflict (coalesce("ip", ''), ("detail"->>'code'), ("detail"->>'minute')) where "kind" = 'singleSignOnRefused'
          do update set "detail" = jsonb_set("security_events"."detail", '{repeats}', to_jsonb(coalesce(("security_events"."detail"->>'repeats')::int, 1) + 1));
        else
          raise exception 'record_security_refusal: % is not an aggregated refusal', p_kind;
        end if;
      end $$;`);
    this.addSql(`create or replace function prune_security_events(p_before timestamptz) returns integer
      language plpgsql security definer set search_path = public, pg_temp as $$
      declare
        removed integer;
      begin
        delete from "security_events" where "at" < least(p_before, now() - interval '1 year');
        get diagnostics removed = row_count;
        return removed;
      end $$;`);
    this.addSql(`create or replace function "report_kind_of"(p_type text, p_certificate text, p_auto text) returns text
      language sql immutable as $$
      select case
        when p_type is distinct from 'certificate' then case p_type
          when 'credentialing' then 'Claim History and Insurance Verification' else p_type end
        when p_certificate = 'Auto Liability' and p_auto = 'Rental' then 'COI Request: Rental'
        when coalesce(p_certificate, '') <> '' then 'COI Request: ' || p_certificate
        else 'Certificate of Insurance' end $$;`);
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
    this.addSql(`create or replace function "report_facts_follow_kind"() returns trigger language plpgsql as $$
      begin
        update "request_report_facts" set "kind" = "report_kind_of"(new."request_type", new."certificate_type", new."auto_type")
          where "request_id" = new."id";
        return null;
      end $$;`);
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
  }

  override down(): void | Promise<void> {
    // The definitions the database held before, of the functions whose text this changes.
    this.addSql(`CREATE OR REPLACE FUNCTION public.report_kind_of(p_type text, p_certificate text, p_auto text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
      select case when p_type = 'credentialing' then 'Claim History and Insurance Verification'
        when p_certificate = 'Auto Liability' and p_auto = 'Rental' then 'COI Request: Rental'
        else 'COI Request: ' || coalesce(p_certificate, '') end $function$
`);
  }
}
