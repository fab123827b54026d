/**
 * The SQL functions of the portal's database, as their text is today, in one place. Where a function holds a rule of
 * the spec (the kind of a request, the finished statuses, the audit kind of a submission, the days of the office
 * calendar, the refusal codes and security-log kinds it answers with) the text is rendered from domain/, so SQL and
 * TypeScript say the same thing (tests/api/sql-rules.test.ts holds them side by side over random inputs).
 *
 * Migrations ship the text: `npm run migration:sql-functions -- <name>` (scripts/create-sql-functions-migration.ts)
 * writes a migration holding today's text of every function whose definition in a freshly migrated database differs
 * from it. A migration keeps the text it was written with, so history replays exactly as it ran; a change here (or in
 * the domain/ rules it renders) without such a migration fails tests/api/sql-rules.test.ts, since existing databases
 * would keep the old text.
 */
import type { UserQuotas } from '../domain/abuse-limits';
import { STATUS_CHANGE_ACTIVITY, SUBMISSION_ACTIVITY } from '../domain/audit-kinds';
import { WEBHOOK_EVENT } from '../domain/webhooks';
import { AUTO_LIABILITY_CERTIFICATE, RENTAL_AUTO_TYPE, REQUEST_TYPE, REQUEST_TYPE_LABEL } from '../domain/reference-lists';
import { CERTIFICATE_LABEL_PREFIX, RENTAL_FILTER } from '../domain/request-lists';
import { FINISHED_STATUSES } from '../domain/request-status';
import { OFFICE_CALENDAR_DAYS } from '../domain/reports';
import type { SecurityEventKind } from '../domain/security-events';

export interface SqlFunction {
  name: string;
  /** the name and argument types, as GRANT, REVOKE and DROP name it */
  signature: string;
  /** the `create or replace function` statement */
  text: string;
  /**
   * runs as its owner (SECURITY DEFINER) and only the portal's runtime role may call it: PUBLIC's EXECUTE is revoked
   * (Migration20261127500001), and db/least-privilege-role.ts grants it to the runtime role
   */
  ownerOnly?: boolean;
}

/** A SQL string literal of `text` (standard_conforming_strings: only the quote doubles). */
export const sqlLiteral = (text: string): string => `'${text.replace(/'/g, "''")}'`;
const sqlList = (values: readonly string[]) => values.map(sqlLiteral).join(', ');

// ---------------------------------------------------------------- requests: status stamp, live events, list counts

const requestsStampStatusChange: SqlFunction = {
  name: 'requests_stamp_status_change',
  signature: '"requests_stamp_status_change"()',
  text: `create or replace function "requests_stamp_status_change"() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' or new."status" is distinct from old."status" then
    new."status_changed_at" := clock_timestamp();
  end if;
  return new;
end $$;`,
};

const notifyRequestEvent: SqlFunction = {
  name: 'notify_request_event',
  signature: '"notify_request_event"()',
  text: `create or replace function "notify_request_event"() returns trigger language plpgsql as $$
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
end $$;`,
};

const notifyRequestActivityEvent: SqlFunction = {
  name: 'notify_request_activity_event',
  signature: '"notify_request_activity_event"()',
  text: `create or replace function "notify_request_activity_event"() returns trigger language plpgsql as $$
declare
  request_row record;
begin
  select "requester_id", "email" into request_row from "requests" where "id" = new."request_id";
  perform pg_notify('request_events', json_build_object(
    'kind', 'activity', 'requestId', new."request_id", 'requesterId', request_row."requester_id", 'email', request_row."email")::text);
  return null;
end $$;`,
};

/**
 * `request_counts` and `request_submission_days` kept by statement triggers (Migration20261122090000). PL/pgSQL plans a
 * statement when it first runs it, so each branch reads only the transition tables its event has.
 */
const requestCountsApply: SqlFunction = (() => {
  const upsert = (delta: string) => `insert into "request_counts" as c ("request_type", "certificate_type", "auto_type", "status", "n")
          select "request_type", "certificate_type", "auto_type", "status", sum("d") from (${delta}) as delta
          group by 1, 2, 3, 4 having sum("d") <> 0 order by 1, 2, 3, 4
          on conflict on constraint "request_counts_key" do update set "n" = c."n" + excluded."n";`;
  const rows = (table: string, d: number) => `select "request_type", "certificate_type", "auto_type", "status", ${d} as "d" from "${table}"`;
  const days = (delta: string) => `insert into "request_submission_days" as c ("day", "n")
          select "day", sum("d") from (${delta}) as delta where "day" is not null
          group by 1 having sum("d") <> 0 order by 1
          on conflict ("day") do update set "n" = c."n" + excluded."n";`;
  const submitted = (table: string, d: number) => `select ("submit_date" at time zone 'UTC')::date as "day", ${d} as "d" from "${table}"`;
  return {
    name: 'request_counts_apply',
    signature: '"request_counts_apply"()',
    text: `create or replace function "request_counts_apply"() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          ${upsert(rows('new_rows', 1))}
          ${days(submitted('new_rows', 1))}
        elsif tg_op = 'DELETE' then
          ${upsert(rows('old_rows', -1))}
          ${days(submitted('old_rows', -1))}
        else
          ${upsert(`${rows('old_rows', -1)} union all ${rows('new_rows', 1)}`)}
          ${days(`${submitted('old_rows', -1)} union all ${submitted('new_rows', 1)}`)}
        end if;
        return null;
      end $$;`,
  };
})();

const requestCountsTruncate: SqlFunction = {
  name: 'request_counts_truncate',
  signature: '"request_counts_truncate"()',
  text: `create or replace function "request_counts_truncate"() returns trigger language plpgsql as $$
      begin delete from "request_counts"; delete from "request_submission_days"; return null; end $$;`,
};

// ---------------------------------------------------------------- uploads

/** The refusals reserve_upload_slot answers with: the names of the quotas it checks (services/documents/uploads.ts). */
const UPLOADS_AT_ONCE: keyof UserQuotas = 'uploadsAtOnce';
const UPLOAD_BYTES_PER_DAY: keyof UserQuotas = 'uploadBytesPerDay';

/** A place for an upload and its bytes, or why not (Migration20261127400001 says why it is PL/pgSQL). */
const reserveUploadSlot: SqlFunction = {
  name: 'reserve_upload_slot',
  signature: '"reserve_upload_slot"(uuid, int, bigint, bigint, bigint, int, bigint)',
  text: `create or replace function "reserve_upload_slot"(slot_id uuid, for_user int, reserve_bytes bigint, byte_limit bigint, window_ms bigint, at_once int, ttl_ms bigint)
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
          return query select ${sqlLiteral(UPLOADS_AT_ONCE)}::text, held;
          return;
        end if;
        if byte_limit is not null then
          held := held + (select coalesce(sum(u."size"), 0) from "uploads" u
            where u."user_id" = for_user and u."created_at" > now() - window_ms * interval '1 millisecond');
          if held >= byte_limit or held + reserve_bytes > byte_limit then
            return query select ${sqlLiteral(UPLOAD_BYTES_PER_DAY)}::text, held;
            return;
          end if;
        end if;
        insert into "upload_slots" ("id", "user_id", "bytes", "expires_at")
          values (slot_id, for_user, reserve_bytes, now() + ttl_ms * interval '1 millisecond');
        return query select null::text, held;
      end
      $fn$;`,
};

// ---------------------------------------------------------------- the security log (owner's functions)

const ACCESS_REFUSED: SecurityEventKind = 'accessRefused';
const SINGLE_SIGN_ON_REFUSED: SecurityEventKind = 'singleSignOnRefused';

/** Refusals aggregated per (caller, subject, minute) (Migration20261127500001). */
const recordSecurityRefusal: SqlFunction = {
  name: 'record_security_refusal',
  signature: 'record_security_refusal(text, integer, text, text, jsonb)',
  ownerOnly: true,
  text: `create or replace function record_security_refusal(p_kind text, p_user_id integer, p_email text, p_ip text, p_detail jsonb) returns void
      language plpgsql security definer set search_path = public, pg_temp as $$
      declare
        line jsonb := coalesce(p_detail, '{}'::jsonb) || jsonb_build_object('repeats', 1, 'minute', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI'));
      begin
        if p_kind = ${sqlLiteral(ACCESS_REFUSED)} then
          insert into "security_events" ("kind", "user_id", "email", "ip", "detail") values (p_kind, p_user_id, p_email, p_ip, line)
          on conflict (coalesce("user_id", 0), coalesce("ip", ''), ("detail"->>'route'), ("detail"->>'minute')) where "kind" = ${sqlLiteral(ACCESS_REFUSED)}
          do update set "detail" = jsonb_set("security_events"."detail", '{repeats}', to_jsonb(coalesce(("security_events"."detail"->>'repeats')::int, 1) + 1));
        elsif p_kind = ${sqlLiteral(SINGLE_SIGN_ON_REFUSED)} then
          insert into "security_events" ("kind", "user_id", "email", "ip", "detail") values (p_kind, p_user_id, p_email, p_ip, line)
          on conflict (coalesce("ip", ''), ("detail"->>'code'), ("detail"->>'minute')) where "kind" = ${sqlLiteral(SINGLE_SIGN_ON_REFUSED)}
          do update set "detail" = jsonb_set("security_events"."detail", '{repeats}', to_jsonb(coalesce(("security_events"."detail"->>'repeats')::int, 1) + 1));
        else
          raise exception 'record_security_refusal: % is not an aggregated refusal', p_kind;
        end if;
      end $$;`,
};

/** Housekeeping's yearly pruning, never of a line younger than a year whatever the caller asks. */
const pruneSecurityEvents: SqlFunction = {
  name: 'prune_security_events',
  signature: 'prune_security_events(timestamptz)',
  ownerOnly: true,
  text: `create or replace function prune_security_events(p_before timestamptz) returns integer
      language plpgsql security definer set search_path = public, pg_temp as $$
      declare
        removed integer;
      begin
        delete from "security_events" where "at" < least(p_before, now() - interval '1 year');
        get diagnostics removed = row_count;
        return removed;
      end $$;`,
};

// ---------------------------------------------------------------- the reports' roll-up (Migration20261128200001)

/**
 * The request's kind as the dashboard's "Filter By Request Type" names it: domain requestTypeLabelOf, case by case.
 * Immutable: it reads its arguments only.
 */
const reportKindOf: SqlFunction = (() => {
  const otherTypes = (Object.entries(REQUEST_TYPE_LABEL) as [string, string][]).filter(([type]) => type !== REQUEST_TYPE.certificate);
  return {
    name: 'report_kind_of',
    signature: '"report_kind_of"(text, text, text)',
    text: `create or replace function "report_kind_of"(p_type text, p_certificate text, p_auto text) returns text
      language sql immutable as $$
      select case
        when p_type is distinct from ${sqlLiteral(REQUEST_TYPE.certificate)} then case p_type
          ${otherTypes.map(([type, label]) => `when ${sqlLiteral(type)} then ${sqlLiteral(label)}`).join(' ')} else p_type end
        when p_certificate = ${sqlLiteral(AUTO_LIABILITY_CERTIFICATE)} and p_auto = ${sqlLiteral(RENTAL_AUTO_TYPE)} then ${sqlLiteral(RENTAL_FILTER)}
        when coalesce(p_certificate, '') <> '' then ${sqlLiteral(CERTIFICATE_LABEL_PREFIX)} || p_certificate
        else ${sqlLiteral(REQUEST_TYPE_LABEL.certificate)} end $$;`,
  };
})();

/**
 * Rebuilds the stays and facts of the given requests from their audit rows (order: date, then row id): stays from the
 * first submission on; a request is finished when its last stay is in a finished status (domain FINISHED_STATUSES).
 * `in (select unnest(ids))`, not `= any(ids)`: a hashed semi-join, where a long array would be searched once per row.
 */
const reportRollupRefresh: SqlFunction = {
  name: 'report_rollup_refresh',
  signature: '"report_rollup_refresh"(int[])',
  text: `create or replace function "report_rollup_refresh"(ids int[]) returns void language sql as $$
      delete from "request_status_stays" where "request_id" in (select unnest(ids));
      delete from "request_report_facts" where "request_id" in (select unnest(ids));
      insert into "request_status_stays" ("request_id", "seq", "status", "entered_at", "left_at")
        select "request_id", row_number() over w, "status_to", "date", lead("date") over w
        from (select a.*, min(a."date") filter (where a."activity_type" = ${sqlLiteral(SUBMISSION_ACTIVITY)}) over (partition by a."request_id") as "first_submit"
              from "request_activity" a
              where a."request_id" in (select unnest(ids)) and a."status_to" is not null) h
        where h."first_submit" is not null and h."date" >= h."first_submit"
        window w as (partition by "request_id" order by "date", "id");
      insert into "request_report_facts" ("request_id", "kind", "first_submitted_at", "last_status", "last_status_at", "finished_at")
        select distinct on (s."request_id") s."request_id", "report_kind_of"(r."request_type", r."certificate_type", r."auto_type"),
          first."entered_at", s."status", s."entered_at",
          case when s."status" in (${sqlList(FINISHED_STATUSES)}) then s."entered_at" end
        from "request_status_stays" s
        join "request_status_stays" first on first."request_id" = s."request_id" and first."seq" = 1
        join "requests" r on r."id" = s."request_id"
        where s."request_id" in (select unnest(ids))
        order by s."request_id", s."seq" desc;
    $$;`,
};

const reportRollupOnActivity: SqlFunction = {
  name: 'report_rollup_on_activity',
  signature: '"report_rollup_on_activity"()',
  text: `create or replace function "report_rollup_on_activity"() returns trigger language plpgsql as $$
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
      end $$;`,
};

const reportFactsFollowKind: SqlFunction = {
  name: 'report_facts_follow_kind',
  signature: '"report_facts_follow_kind"()',
  text: `create or replace function "report_facts_follow_kind"() returns trigger language plpgsql as $$
      begin
        update "request_report_facts" set "kind" = "report_kind_of"(new."request_type", new."certificate_type", new."auto_type")
          where "request_id" = new."id";
        return null;
      end $$;`,
};

/**
 * The clocks' business calendar as one row per day (domain OFFICE_CALENDAR_DAYS) with the office seconds before it,
 * rebuilt when the configuration it was built from (its signature) differs (services/desk/office-calendar.ts asks).
 * A business day: an ISO week day of `p_work_days` that is not a holiday, open from `p_open` to `p_close` in the zone
 * (domain/business-calendar.ts).
 */
const officeCalendarRefresh: SqlFunction = {
  name: 'office_calendar_refresh',
  signature: '"office_calendar_refresh"(text, text, int[], date[], time, time)',
  text: `create or replace function "office_calendar_refresh"(p_signature text, p_zone text, p_work_days int[], p_holidays date[], p_open time, p_close time)
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
                from generate_series(timestamp ${sqlLiteral(OFFICE_CALENDAR_DAYS.first)}, timestamp ${sqlLiteral(OFFICE_CALENDAR_DAYS.last)}, interval '1 day') as d) days;
        insert into "office_calendar_signature" ("id", "signature") values (1, p_signature)
          on conflict ("id") do update set "signature" = excluded."signature";
        analyze "office_calendar_days";
        return true;
      end $$;`,
};

// ---------------------------------------------------------------- webhooks: the deliveries an event owes

/**
 * Row trigger on `request_activity` (a submission or a change of status), `issued_letters` (a letter issued) and
 * `discussions` (a message posted): one `webhook_deliveries` row per enabled endpoint that asked for the event and
 * whose owner may see the request (services/requests/request-access.ts `canSee`: they filed it, or it names their
 * confirmed address), written in the transaction of the event itself, so no event is lost and none is invented by a
 * rollback. The worker starts a delivery workflow per row (worker/webhook-dispatcher.ts), woken by the notification.
 */
const webhookDeliveriesFanOut: SqlFunction = {
  name: 'webhook_deliveries_fan_out',
  signature: '"webhook_deliveries_fan_out"()',
  text: `create or replace function "webhook_deliveries_fan_out"() returns trigger language plpgsql as $$
declare
  v_type text;
  v_data jsonb;
  written int;
begin
  if not exists (select 1 from "webhook_endpoints" where "disabled_at" is null) then return null; end if;
  if tg_table_name = 'request_activity' then
    if new."activity_type" not in (${sqlList([SUBMISSION_ACTIVITY, STATUS_CHANGE_ACTIVITY])}) or new."status_to" is null then return null; end if;
    v_type := ${sqlLiteral(WEBHOOK_EVENT.statusChanged)};
    v_data := jsonb_build_object('statusFrom', new."status_from", 'statusTo', new."status_to", 'at', new."date");
  elsif tg_table_name = 'issued_letters' then
    if new."issued_at" is null or (tg_op = 'UPDATE' and old."issued_at" is not null) then return null; end if;
    v_type := ${sqlLiteral(WEBHOOK_EVENT.letterIssued)};
    v_data := jsonb_build_object('issuedLetterId', new."id", 'letterKind', new."letter_kind", 'verificationCode', new."verification_code",
      'documentId', new."document_id", 'at', new."issued_at");
  else
    v_type := ${sqlLiteral(WEBHOOK_EVENT.discussionMessage)};
    v_data := jsonb_build_object('messageId', new."id", 'discussionId', new."discussion_id", 'fromOffice', new."from_admin", 'at', new."created_at");
  end if;
  insert into "webhook_deliveries" ("endpoint_id", "event_type", "request_id", "data", "created_at")
    select e."id", v_type, r."id", v_data, clock_timestamp()
    from "requests" r
    join "webhook_endpoints" e on e."disabled_at" is null and v_type = any(e."events")
    join "users" u on u."id" = e."owner_id"
    where r."id" = new."request_id"
      and (r."requester_id" = u."id" or (u."email_confirmed_at" is not null and lower(r."email") = lower(u."email")));
  get diagnostics written = row_count;
  if written > 0 then perform pg_notify('webhook_deliveries', ''); end if;
  return null;
end $$;`,
};

/** Every function, in an order that creates what a function calls before it. */
export const SQL_FUNCTIONS: readonly SqlFunction[] = [
  requestsStampStatusChange, notifyRequestEvent, notifyRequestActivityEvent, requestCountsApply, requestCountsTruncate,
  reserveUploadSlot, recordSecurityRefusal, pruneSecurityEvents,
  reportKindOf, reportRollupRefresh, reportRollupOnActivity, reportFactsFollowKind, officeCalendarRefresh,
  webhookDeliveriesFanOut,
];

/** The owner's functions the runtime role may call (db/least-privilege-role.ts grants them). */
export const OWNER_ONLY_FUNCTIONS = SQL_FUNCTIONS.filter((f) => f.ownerOnly).map((f) => f.signature);
