import { Migration } from '@mikro-orm/migrations';

/**
 * The SQL functions `webhook_deliveries_fan_out` as db/sql-functions.ts renders them on 2026-11-29: written by `npm
 * run migration:sql-functions`. Change the functions there, never here: a migration keeps the text it was written
 * with, so history replays as it ran.
 *
 * Webhooks: the deliveries an event owes, written in its transaction (the triggers: Migration20261203410003).
 */
export class Migration20261203410002_webhook_functions extends Migration {

  override name = 'Migration20261203410002_webhook_functions';

  override up(): void | Promise<void> {
    this.addSql(`create or replace function "webhook_deliveries_fan_out"() returns trigger language plpgsql as $$
declare
  v_type text;
  v_data jsonb;
  written int;
begin
  if not exists (select 1 from "webhook_endpoints" where "disabled_at" is null) then return null; end if;
  if tg_table_name = 'request_activity' then
    if new."activity_type" not in ('Submission', 'Status Change') or new."status_to" is null then return null; end if;
    v_type := 'request.status_changed';
    v_data := jsonb_build_object('statusFrom', new."status_from", 'statusTo', new."status_to", 'at', new."date");
  elsif tg_table_name = 'issued_letters' then
    if new."issued_at" is null or (tg_op = 'UPDATE' and old."issued_at" is not null) then return null; end if;
    v_type := 'letter.issued';
    v_data := jsonb_build_object('issuedLetterId', new."id", 'letterKind', new."letter_kind", 'verificationCode', new."verification_code",
      'documentId', new."document_id", 'at', new."issued_at");
  else
    v_type := 'discussion.message';
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
end $$;`);
  }

  override down(): void | Promise<void> {
    // The definitions the database held before, of the functions whose text this changes.
    this.addSql(`drop function if exists "webhook_deliveries_fan_out"();`);
  }
}
