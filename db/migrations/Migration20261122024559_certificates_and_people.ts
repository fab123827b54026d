import { Migration } from '@mikro-orm/migrations';

/**
 * Certificates (issue #6): one column per certificate form field, the person's role on the request, the people
 * directory, and request numbers at creation: drafts made before this numbering get their numbers now, in the
 * order they were created, from the same counter row (so no number is shared or skipped).
 */
export class Migration20261122024559_certificates_and_people extends Migration {

  override name = 'Migration20261122024559_certificates_and_people';

  override up(): void | Promise<void> {
    this.addSql(`create table "people" ("id" serial primary key, "created_at" timestamptz not null, "updated_at" timestamptz not null, "employee_id" varchar(255) not null, "email" varchar(255) null, "last_name" varchar(255) not null, "first_name" varchar(255) not null, "middle_initial" varchar(255) null, "title" varchar(255) null, "work_phone" varchar(255) null, "birth_date" timestamptz null, "hire_date" timestamptz null, "employment_status" varchar(255) not null default 'A', "termination_date" timestamptz null, "person_type" varchar(255) not null);`);
    this.addSql(`create index "people_employee_id_index" on "people" ("employee_id");`);
    this.addSql(`create index "people_email_index" on "people" ("email");`);
    this.addSql(`create index "people_last_name_index" on "people" ("last_name");`);

    this.addSql(`alter table "requests" add "person_role" varchar(255) null, add "work_phone" varchar(255) null, add "certificate_holder" varchar(255) null, add "certificate_holder_address" varchar(255) null, add "certificate_holder_email" varchar(255) null, add "contract_lease_type" varchar(255) null, add "contract_number" varchar(255) null, add "lease_number" varchar(255) null, add "loan_number" varchar(255) null, add "oca_number" varchar(255) null, add "is_for_leased_property" varchar(255) null, add "lease_expiration_date" timestamptz null, add "leased_property_name" varchar(255) null, add "leased_property_address" varchar(255) null, add "building_number" varchar(255) null, add "internal_contact" varchar(255) null, add "reason_equipment" text null, add "new_lease_or_equip" varchar(255) null, add "lessor_name" varchar(255) null, add "lessor_email" varchar(255) null, add "lessor_address" varchar(255) null, add "auto_type" varchar(255) null, add "driver_name" varchar(255) null, add "rental_company" varchar(255) null, add "pick_up_address" varchar(255) null, add "rental_start_date" timestamptz null, add "rental_end_date" timestamptz null, add "acknowledged_approval" boolean null, add "plate_number" varchar(255) null, add "vehicle_year" varchar(255) null, add "vehicle_make" varchar(255) null, add "vehicle_model" varchar(255) null, add "vehicle_color" varchar(255) null, add "vehicle_id_number" varchar(255) null, add "vehicle_location" varchar(255) null, add "vehicle_location_other" varchar(255) null, add "vehicle_owning_dept" varchar(255) null, add "vehicle_owning_dept_other" varchar(255) null, add "vehicle_type" varchar(255) null, add "vehicle_type_other" varchar(255) null, add "vehicle_decommissioned" boolean null, add "vehicle_transferred" boolean null, add "event_name" varchar(255) null, add "event_type" varchar(255) null, add "event_location" varchar(255) null, add "event_description" text null, add "event_start_date" timestamptz null, add "event_end_date" timestamptz null, add "event_patient_care" varchar(255) null, add "event_patient_care_detail" text null, add "is_provider_employ_related" varchar(255) null, add "cloned_from_id" int null;`);
    this.addSql(`create index "requests_vehicle_id_number_index" on "requests" ("vehicle_id_number");`);
    this.addSql(`insert into "counters" ("name", "last_request_number") select 'request', 50000 where not exists (select 1 from "counters" where "name" = 'request');`);
    this.addSql(`with numberless as (
        select "id", row_number() over (order by "created_at", "id") as n from "requests" where "request_number" is null
      ), counter as (select "last_request_number" as last from "counters" where "name" = 'request' for update)
      update "requests" r set "request_number" = counter.last + numberless.n from numberless, counter where r."id" = numberless."id";`);
    this.addSql(`update "counters" set "last_request_number" = (select coalesce(max("request_number"), "last_request_number") from "requests") where "name" = 'request' and (select max("request_number") from "requests") > "last_request_number";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "people" cascade;`);

    this.addSql(`drop index "requests_vehicle_id_number_index";`);
    this.addSql(`alter table "requests" drop column "person_role", drop column "work_phone", drop column "certificate_holder", drop column "certificate_holder_address", drop column "certificate_holder_email", drop column "contract_lease_type", drop column "contract_number", drop column "lease_number", drop column "loan_number", drop column "oca_number", drop column "is_for_leased_property", drop column "lease_expiration_date", drop column "leased_property_name", drop column "leased_property_address", drop column "building_number", drop column "internal_contact", drop column "reason_equipment", drop column "new_lease_or_equip", drop column "lessor_name", drop column "lessor_email", drop column "lessor_address", drop column "auto_type", drop column "driver_name", drop column "rental_company", drop column "pick_up_address", drop column "rental_start_date", drop column "rental_end_date", drop column "acknowledged_approval", drop column "plate_number", drop column "vehicle_year", drop column "vehicle_make", drop column "vehicle_model", drop column "vehicle_color", drop column "vehicle_id_number", drop column "vehicle_location", drop column "vehicle_location_other", drop column "vehicle_owning_dept", drop column "vehicle_owning_dept_other", drop column "vehicle_type", drop column "vehicle_type_other", drop column "vehicle_decommissioned", drop column "vehicle_transferred", drop column "event_name", drop column "event_type", drop column "event_location", drop column "event_description", drop column "event_start_date", drop column "event_end_date", drop column "event_patient_care", drop column "event_patient_care_detail", drop column "is_provider_employ_related", drop column "cloned_from_id";`);
  }

}
