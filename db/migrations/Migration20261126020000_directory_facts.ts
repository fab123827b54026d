import { Migration } from '@mikro-orm/migrations';

/**
 * The directory's employment facts on the request that names a person picked from it (spec 1 §3
 * "Clinician or person: … hireDate, employmentStatus (A active, T terminated), terminationDate"): copied from `people`
 * by employee id when the request is saved, so an administrator sees what the directory said at the time. Existing
 * requests with an employee id are filled from today's directory.
 */
export class Migration20261126020000_directory_facts extends Migration {

  override name = 'Migration20261126020000_directory_facts';

  override up(): void | Promise<void> {
    this.addSql(`alter table "requests" add column if not exists "hire_date" timestamptz null, add column if not exists "employment_status" varchar(1) null, add column if not exists "termination_date" timestamptz null;`);
    this.addSql(`update "requests" r set "hire_date" = p."hire_date", "employment_status" = p."employment_status", "termination_date" = p."termination_date" from "people" p where p."employee_id" = r."employee_id" and r."employee_id" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "requests" drop column if exists "hire_date", drop column if exists "employment_status", drop column if exists "termination_date";`);
  }
}
