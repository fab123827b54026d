import { Migration } from '@mikro-orm/migrations';

/**
 * The security log is append-only for the portal's runtime role (db/least-privilege-role.ts grants it INSERT and
 * SELECT on security_events, never UPDATE or DELETE), so a compromised API cannot rewrite or erase what it did. Two
 * writes still need more, and each goes through a function that runs as the owner (SECURITY DEFINER) and can do only
 * that one thing:
 *
 * - `record_security_refusal`: refusals are aggregated, at most one line per (caller, subject, minute) with a repeat
 *   counter. It inserts the line, or on conflict raises `detail.repeats` of that refusal line, nothing else.
 *   Anonymous single sign-on refusals (garbage posted to the SAML consumer) are aggregated like access refusals, per
 *   (address, refusal code, minute), so a flood grows the table by one line per address and minute.
 * - `prune_security_events`: housekeeping's yearly pruning. Whatever cut-off the caller asks for, it never deletes a
 *   line younger than a year, so the runtime role cannot use it to erase recent lines.
 *
 * EXECUTE is revoked from PUBLIC (PostgreSQL grants it by default); the owner grants it to the runtime role.
 */
export class Migration20261127500001_security_log_writes extends Migration {

  override name = 'Migration20261127500001_security_log_writes';

  override up(): void | Promise<void> {
    this.addSql(`create unique index "security_events_sso_refusal_minute_unique" on "security_events" (coalesce("ip", ''), ("detail"->>'code'), ("detail"->>'minute')) where "kind" = 'singleSignOnRefused';`);
    this.addSql(`create function record_security_refusal(p_kind text, p_user_id integer, p_email text, p_ip text, p_detail jsonb) returns void
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
    this.addSql(`create function prune_security_events(p_before timestamptz) returns integer
      language plpgsql security definer set search_path = public, pg_temp as $$
      declare
        removed integer;
      begin
        delete from "security_events" where "at" < least(p_before, now() - interval '1 year');
        get diagnostics removed = row_count;
        return removed;
      end $$;`);
    this.addSql(`revoke execute on function record_security_refusal(text, integer, text, text, jsonb) from public;`);
    this.addSql(`revoke execute on function prune_security_events(timestamptz) from public;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop function if exists prune_security_events(timestamptz);`);
    this.addSql(`drop function if exists record_security_refusal(text, integer, text, text, jsonb);`);
    this.addSql(`drop index if exists "security_events_sso_refusal_minute_unique";`);
  }
}
