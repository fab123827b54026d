import { Migration } from '@mikro-orm/migrations';

/**
 * Uploads in progress, shared by every API process.
 *
 * - `upload_slots`: one row per upload being received, with the bytes it holds against the day's quota and a time
 *   it runs out (a process that dies mid-upload frees the place then; housekeeping removes the partial file).
 * - `reserve_upload_slot(...)`: takes a place and reserves bytes in one call, or answers why not. Calls for one user
 *   queue on a transaction-level advisory lock, and being PL/pgSQL each statement inside takes a fresh snapshot
 *   (READ COMMITTED): every call counts the places and bytes the calls before it committed, so a burst cannot all
 *   pass the same check. A plain INSERT … SELECT sum(…) would not do: its snapshot is taken before any lock it waits
 *   for. Bytes held = the uploads of the window (settled sizes) + the places in progress (reserved sizes).
 */
export class Migration20261127400001_upload_slots extends Migration {

  override name = 'Migration20261127400001_upload_slots';

  override up(): void | Promise<void> {
    this.addSql(`create table "upload_slots" ("id" uuid primary key, "user_id" int not null, "bytes" bigint not null, "expires_at" timestamptz not null);`);
    this.addSql(`create index "upload_slots_user_index" on "upload_slots" ("user_id");`);
    this.addSql(`create index "upload_slots_expires_index" on "upload_slots" ("expires_at");`);
    this.addSql(`
      create function "reserve_upload_slot"(slot_id uuid, for_user int, reserve_bytes bigint, byte_limit bigint, window_ms bigint, at_once int, ttl_ms bigint)
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
  }

  override down(): void | Promise<void> {
    this.addSql(`drop function if exists "reserve_upload_slot"(uuid, int, bigint, bigint, bigint, int, bigint);`);
    this.addSql(`drop table if exists "upload_slots";`);
  }
}
