import { Migration } from '@mikro-orm/migrations';

/**
 * The directory feed added everybody under a shared IS code again on every run (the code names nobody, and the feed
 * matched records by employee id only), so person search listed them several times. The feed now finds such a person
 * again by their email, else their names and birth date (domain/people-directory.ts sharedCodeIdentity); this removes
 * the copies earlier runs left, keeping each person's most recently written record. Nothing points at a person row
 * of a shared code (requests copy the person's fields; wake-ups only follow personal employee ids).
 *
 * The codes are spec 2 §9.3's, as they are today: a migration keeps the list it was written with.
 */
export class Migration20261130100001_shared_code_people_once extends Migration {

  override name = 'Migration20261130100001_shared_code_people_once';

  override up(): void | Promise<void> {
    this.addSql(`delete from "people" p using "people" q
      where p."employee_id" in ('111111', '111222', '12345', '99999', '22222')
        and q."employee_id" = p."employee_id"
        and (
          (nullif(trim(p."email"), '') is not null and lower(trim(q."email")) = lower(trim(p."email")))
          or (nullif(trim(p."email"), '') is null and nullif(trim(q."email"), '') is null
            and q."last_name" = p."last_name" and q."first_name" = p."first_name"
            and q."middle_initial" is not distinct from p."middle_initial" and q."birth_date" is not distinct from p."birth_date")
        )
        and (q."updated_at", q."id") > (p."updated_at", p."id");`);
  }

  override down(): void | Promise<void> {
    // The copies were the defect: nothing to put back.
  }
}
