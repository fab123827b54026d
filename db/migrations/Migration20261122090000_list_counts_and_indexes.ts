import { Migration } from '@mikro-orm/migrations';

/**
 * Lists at 100,000 requests.
 *
 * `request_counts` holds how many requests there are of each (request type, certificate type, auto type, status):
 * statement triggers on `requests` keep it in the same transaction as the change, so it is exactly right at every
 * commit, and the unfiltered total of a list, a request-type-label total and the dashboard's queue counts read a
 * few dozen rows instead of counting 100,000. A change that keeps those four columns nets to nothing and writes
 * nothing. Rows are upserted in key order so two transactions never lock them in opposite orders.
 *
 * `request_submission_days` holds how many requests were submitted on each UTC day, kept by the same triggers: the
 * dashboard's today / month-to-date / year-to-date counts (local day boundaries) add the whole days after a
 * boundary to a count of the few rows between the boundary and the next UTC midnight (services/lists/request-counts.ts).
 *
 * Indexes follow the EXPLAIN plans of the list queries (bench/lists.bench.ts prints them):
 * - newest update first over all requests (the administrator's list) and over one requester's (their own list,
 *   and the clinician-email half of the visibility rule);
 * - the admin work queue (statuses still to decide), newest update first, as a partial index.
 */
export class Migration20261122090000_list_counts_and_indexes extends Migration {

  override name = 'Migration20261122090000_list_counts_and_indexes';

  override up(): void | Promise<void> {
    this.addSql(`create table "request_counts" (
      "request_type" text not null, "certificate_type" text null, "auto_type" text null, "status" text not null,
      "n" bigint not null,
      constraint "request_counts_key" unique nulls not distinct ("request_type", "certificate_type", "auto_type", "status"));`);
    // PL/pgSQL plans a statement when it first runs it, so each branch reads only the transition tables its event has.
    const upsert = (delta: string) => `insert into "request_counts" as c ("request_type", "certificate_type", "auto_type", "status", "n")
          select "request_type", "certificate_type", "auto_type", "status", sum("d") from (${delta}) as delta
          group by 1, 2, 3, 4 having sum("d") <> 0 order by 1, 2, 3, 4
          on conflict on constraint "request_counts_key" do update set "n" = c."n" + excluded."n";`;
    const rows = (table: string, d: number) => `select "request_type", "certificate_type", "auto_type", "status", ${d} as "d" from "${table}"`;
    this.addSql(`create table "request_submission_days" ("day" date primary key, "n" bigint not null);`);
    const days = (delta: string) => `insert into "request_submission_days" as c ("day", "n")
          select "day", sum("d") from (${delta}) as delta where "day" is not null
          group by 1 having sum("d") <> 0 order by 1
          on conflict ("day") do update set "n" = c."n" + excluded."n";`;
    const submitted = (table: string, d: number) => `select ("submit_date" at time zone 'UTC')::date as "day", ${d} as "d" from "${table}"`;
    this.addSql(`create or replace function "request_counts_apply"() returns trigger language plpgsql as $$
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
      end $$;`);
    // A trigger with transition tables takes one event, hence three; each names the tables the function reads.
    this.addSql(`create trigger "requests_counts_insert" after insert on "requests" referencing new table as "new_rows"
      for each statement execute function "request_counts_apply"();`);
    this.addSql(`create trigger "requests_counts_update" after update on "requests" referencing old table as "old_rows" new table as "new_rows"
      for each statement execute function "request_counts_apply"();`);
    this.addSql(`create trigger "requests_counts_delete" after delete on "requests" referencing old table as "old_rows"
      for each statement execute function "request_counts_apply"();`);
    this.addSql(`create or replace function "request_counts_truncate"() returns trigger language plpgsql as $$
      begin delete from "request_counts"; delete from "request_submission_days"; return null; end $$;`);
    this.addSql(`create trigger "requests_counts_truncate" after truncate on "requests"
      for each statement execute function "request_counts_truncate"();`);
    this.addSql(`insert into "request_counts" select "request_type", "certificate_type", "auto_type", "status", count(*)
      from "requests" group by 1, 2, 3, 4;`);
    this.addSql(`insert into "request_submission_days" select ("submit_date" at time zone 'UTC')::date, count(*)
      from "requests" where "submit_date" is not null group by 1;`);

    this.addSql(`create index "requests_updated_order" on "requests" ("updated_at" desc, "id" desc);`);
    this.addSql(`create index "requests_requester_updated_order" on "requests" ("requester_id", "updated_at" desc, "id" desc);`);
    this.addSql(`create index "requests_email_updated_order" on "requests" ("email", "updated_at" desc, "id" desc);`);
    this.addSql(`create index "requests_queue_order" on "requests" ("updated_at" desc, "id" desc)
      where "status" not in ('Approved', 'Approved with Letter of Intent', 'Denied');`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index if exists "requests_queue_order";`);
    this.addSql(`drop index if exists "requests_email_updated_order";`);
    this.addSql(`drop index if exists "requests_requester_updated_order";`);
    this.addSql(`drop index if exists "requests_updated_order";`);
    this.addSql(`drop trigger if exists "requests_counts_truncate" on "requests";`);
    this.addSql(`drop trigger if exists "requests_counts_delete" on "requests";`);
    this.addSql(`drop trigger if exists "requests_counts_update" on "requests";`);
    this.addSql(`drop trigger if exists "requests_counts_insert" on "requests";`);
    this.addSql(`drop function if exists "request_counts_truncate"();`);
    this.addSql(`drop function if exists "request_counts_apply"();`);
    this.addSql(`drop table if exists "request_submission_days";`);
    this.addSql(`drop table if exists "request_counts";`);
  }
}
