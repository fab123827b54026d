/**
 * `npm run seed:requests [-- --requests 100000]`: a year's volume of requests in the kept database `coi_bench_lists`
 * (LISTS_BENCH_DATABASE_URL to change it) for bench/lists.bench.ts, migrated and seeded as the portal does it
 * (db/prepare-database.ts), then filled by a few set-based statements in seconds. Reused when already filled.
 *
 * What it makes (fixed random seed, so every run makes the same rows):
 * - ~2,000 requesters: 1,500 external (credentialing offices, clinics), 500 internal (employees); five hospital
 *   accounts file a quarter of all requests (thousands each), the rest a skewed share; one administrator.
 * - requests of both kinds (55 % credentialing, 45 % certificates: Clinician, Auto Liability (rental or fleet),
 *   Contracts/Lease, Event, Provider, Property), created over the last 12 months, updated after they were created;
 * - statuses by age: recent ones still Draft or open, older ones mostly decided, some Closed (~7 % Draft overall);
 * - request numbers, clinician and requester names, companies and emails for search; submit and completion dates;
 * - the audit trail of every submitted request, in the texts the workflow's activities write: the submission, for a
 *   quarter a round of Pending Additional Information (a reminder when it lasted over ten days) and a resubmission, an
 *   escalation for one in ten, for 3 % of the finished ones an approval, a reopening and a resubmission, the status
 *   it is in now (finished at its completion date; some Closed automatically), an email row per finished request;
 *   then the reports' roll-up built from it (Migration20261128200001). Added to an older filled database too.
 */
import pg from 'pg';
import { pathToFileURL } from 'node:url';
import { prepareDatabase } from '../db/prepare-database';

export const LISTS_DATABASE_URL = process.env.LISTS_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/coi_bench_lists';
export const BENCH_ADMIN_EMAIL = 'bench-admin@ohsu.example';
const REQUESTERS = 2000;
const HOSPITALS = 5;
const FIRST_REQUEST_NUMBER = 5_000_000;

const log = (line: string) => console.log(`[seed:requests] ${line}`);

/** Requesters and the administrator (users + the admin list). */
async function seedUsers(client: pg.Client): Promise<void> {
  await client.query(`
    with names as (select
      array['Avery','Jordan','Taylor','Morgan','Casey','Riley','Jamie','Alex','Sam','Drew','Maria','James','Priya','Wei','Olu','Rosa','Ben','Ava'] as first,
      array['Nguyen','Smith','Johnson','Garcia','Okafor','Patel','Kim','Larsen','Brown','Davis','Miller','Wilson','Anderson','Thomas','Moore',
        'Martin','Jackson','Lee','Harris','Clark','Lewis','Robinson','Walker','Young','Allen','King','Wright','Scott','Torres','Hill'] as last,
      array['Mercy Hospital','Harbor Clinic','Valley Medical','Northside Health','Lakeview Surgical','Riverbend Care','Summit Credentialing',
        'Cascade Staffing','Pacific Locums','Willamette Physicians'] as company)
    insert into users (created_at, updated_at, affiliation, person_type, email, first_name, last_name, company, is_external, session_version, email_confirmed_at)
    select now() - interval '400 days', now() - interval '400 days',
      case when u <= ${REQUESTERS * 3 / 4} then 'external' else 'OHSU' end,
      case when u > ${REQUESTERS * 3 / 4} then 'Employee' end,
      'requester' || u || '@' || case when u <= ${REQUESTERS * 3 / 4} then lower(replace(company[1 + u % 10], ' ', '')) || '.example' else 'ohsu.example' end,
      first[1 + u % 18], last[1 + (u * 7) % 30], case when u <= ${REQUESTERS * 3 / 4} then company[1 + u % 10] else 'OHSU' end,
      u <= ${REQUESTERS * 3 / 4}, 0, now() - interval '400 days'
    from names, generate_series(1, ${REQUESTERS}) as u
    on conflict do nothing`);
  // Confirmed addresses: an address on the admin list grants the rights only once it is proven.
  await client.query(`insert into users (created_at, updated_at, affiliation, person_type, email, first_name, last_name, is_external, session_version, email_confirmed_at)
    values (now(), now(), 'OHSU', 'Employee', $1, 'Bench', 'Admin', false, 0, now()) on conflict do nothing`, [BENCH_ADMIN_EMAIL]);
  await client.query(`insert into admins (created_at, updated_at, first_name, last_name, email) values (now(), now(), 'Bench', 'Admin', $1)
    on conflict (email) do nothing`, [BENCH_ADMIN_EMAIL]);
}

/** <count> requests in one statement (see the file comment for the proportions). */
async function seedRequests(client: pg.Client, count: number): Promise<void> {
  await client.query(`select setseed(0.42)`);
  await client.query(`
    create temporary table requesters as
      select row_number() over (order by id) as n, id, email, first_name, last_name, company, is_external from users where email like 'requester%@%'`);
  await client.query(`
    with names as (select
      array['Avery','Jordan','Taylor','Morgan','Casey','Riley','Jamie','Alex','Sam','Drew','Maria','James','Priya','Wei','Olu','Rosa','Ben','Ava',
        'Hannah','Mateo','Chloe','Noah','Zoe','Liam','Mia','Ethan','Aisha','Kenji','Lucia','Omar'] as first,
      array['Nguyen','Smith','Johnson','Garcia','Okafor','Patel','Kim','Larsen','Brown','Davis','Miller','Wilson','Anderson','Thomas','Moore',
        'Martin','Jackson','Lee','Harris','Clark','Lewis','Robinson','Walker','Young','Allen','King','Wright','Scott','Torres','Hill','Flores',
        'Green','Adams','Nelson','Baker','Hall','Rivera','Campbell','Mitchell','Carter','Roberts','Phillips','Evans','Turner','Parker','Collins',
        'Edwards','Stewart','Morris','Murphy','Cook','Rogers','Morgan','Peterson','Cooper','Reed','Bailey','Bell','Gomez','Kelly','Vandermeer',
        'Featherstone','Oyelaran','Castellanos','Lindqvist','Abernathy','Nakamura','Okonkwo','Delacroix','Fitzgerald'] as last),
    drawn as (
      select g, random() as kind, random() as sub, random() as age, random() as st, random() as who, random() as upd, random() as nm
      from generate_series(1, ${count}) as g),
    shaped as (
      select d.*,
        -- five hospital accounts file a quarter of the requests; the others a skewed share (squared uniform)
        case when who < 0.25 then 1 + floor(who * 4 * ${HOSPITALS})::int
             else ${HOSPITALS + 1} + floor(power((who - 0.25) / 0.75, 2) * ${REQUESTERS - HOSPITALS})::int end as requester_n,
        case when kind < 0.55 then 'credentialing' else 'certificate' end as request_type,
        case when kind >= 0.55 then case
          when sub < 0.30 then 'Clinician' when sub < 0.55 then 'Auto Liability' when sub < 0.70 then 'Contracts/Lease'
          when sub < 0.85 then 'Event' when sub < 0.95 then 'Provider' else 'Property' end end as certificate_type,
        now() - age * interval '365 days' as created_at,
        age * 365 as age_days
      from drawn d),
    statused as (
      select s.*,
        case when s.certificate_type = 'Auto Liability' then case when s.sub < 0.45 then 'Rental' else 'New/Leased Fleet Vehicle' end end as auto_type,
        case
          when s.age_days < 30 then case
            when st < 0.18 then 'Draft' when st < 0.40 then 'Submitted' when st < 0.50 then 'Pending Additional Information'
            when st < 0.54 then 'Pending Employment' when st < 0.57 then 'Pending New Policy Year'
            when st < 0.60 then 'Pending Off-Campus Authorization (OCA)/Contract' when st < 0.88 then 'Approved'
            when st < 0.91 then 'Approved with Letter of Intent' when st < 0.96 then 'Denied' else 'Closed' end
          else case
            when st < 0.06 then 'Draft' when st < 0.075 then 'Submitted' when st < 0.085 then 'Pending Additional Information'
            when st < 0.09 then 'Pending Employment' when st < 0.095 then 'Pending New Policy Year'
            when st < 0.10 then 'Pending Off-Campus Authorization (OCA)/Contract' when st < 0.78 then 'Approved'
            when st < 0.81 then 'Approved with Letter of Intent' when st < 0.88 then 'Denied' else 'Closed' end
        end as status
      from shaped s)
    insert into requests (created_at, updated_at, request_number, request_type, certificate_type, auto_type, status, source, submit_date,
      completed_date, requester_id, requester_name, requester_last_name, requester_email, requester_company, employer_type, verified,
      last_name, first_name, email, date_from, date_to, provider_type, reason, certificate_holder, driver_name, plate_number,
      vehicle_id_number, event_name, version)
    select x.created_at,
      -- updated after creation: drafts and open requests recently, decided ones when they were decided (days later)
      least(now(), x.created_at + x.upd * least(x.age_days, case when x.status in ('Draft', 'Submitted') then 3 else 40 end) * interval '1 day'),
      ${FIRST_REQUEST_NUMBER} + x.g, x.request_type, x.certificate_type, x.auto_type, x.status,
      case when r.is_external then 'external' else 'internal' end,
      case when x.status <> 'Draft' then x.created_at + x.upd * 0.1 * least(x.age_days, 3) * interval '1 day' end,
      case when x.status in ('Approved', 'Approved with Letter of Intent', 'Denied', 'Closed')
        then least(now(), x.created_at + x.upd * least(x.age_days, 40) * interval '1 day') end,
      r.id, r.first_name || ' ' || r.last_name, r.last_name, r.email, r.company,
      case when r.is_external then 'external' else 'internal' end, x.status like 'Approved%',
      last[1 + floor(x.nm * array_length(last, 1))::int] || case when x.g % 23 = 0 then '-' || last[1 + x.g % 17] else '' end,
      first[1 + (x.g * 7) % array_length(first, 1)],
      case when x.request_type = 'credentialing' and x.g % 4 = 0
        then lower(first[1 + (x.g * 7) % array_length(first, 1)] || '.' || last[1 + floor(x.nm * array_length(last, 1))::int]) || (x.g % 500) || '@clinic.example' end,
      case when x.request_type = 'credentialing' then timestamptz '2015-01-01 11:00+00' + (x.g % 3000) * interval '1 day' end,
      case when x.request_type = 'credentialing' then timestamptz '2024-12-31 11:00+00' end,
      case when x.request_type = 'credentialing' or x.certificate_type = 'Provider' then 'Current Employee/Fellow/Resident' end,
      case when x.request_type = 'credentialing' then 'Future employment' end,
      case when x.request_type = 'certificate' then (array['Mercy Hospital','City of Portland Parks','Hertz Rent-A-Car','GE Capital','Legacy Health'])[1 + x.g % 5] end,
      case when x.certificate_type = 'Auto Liability' then first[1 + x.g % 30] || ' ' || last[1 + x.g % 70] end,
      case when x.certificate_type = 'Auto Liability' then upper(substr(md5(x.g::text), 1, 3)) || '-' || (100 + x.g % 900) end,
      case when x.auto_type = 'New/Leased Fleet Vehicle' then upper(substr(md5((x.g * 7)::text), 1, 17)) end,
      case when x.certificate_type = 'Event' then (array['Spring Health Fair','Run for Research','Community Flu Clinic','Summer Camp'])[1 + x.g % 4] end,
      1
    from names, statused x join requesters r on r.n = x.requester_n`);
  await client.query('analyze requests');
  await client.query('analyze users');
}

const SUBMITTED_TEXT = 'Request submitted (status "Submitted")';
const changed = (from: string, to: string) => `'Status changed from "${from}" to "${to}"'`;

/** The audit trail of the bench requests (see the file comment), then the reports' roll-up, bypassing the per-statement triggers once. */
async function seedAuditTrail(client: pg.Client): Promise<void> {
  await client.query(`select setseed(0.17)`);
  await client.query(`set local session_replication_role = replica`); // no live-event notify per row; the roll-up is built below
  await client.query(`
    insert into request_activity (request_id, date, activity_type, activity_text, performed_by, created_at, updated_at)
    select r.id, e.at, e.type, e.text, 'Bench', e.at, e.at
    from (select id, status, submit_date as s, coalesce(completed_date, now()) as f, completed_date as done,
            random() as a, random() as b, random() as c
          from requests where request_number > ${FIRST_REQUEST_NUMBER} and status <> 'Draft' and submit_date is not null) r
    cross join lateral (values
      (r.s, 'Submission', '${SUBMITTED_TEXT}', true),
      (r.s + (r.f - r.s) * 0.10, 'Escalation', 'Escalated to the administrators: submitted and not reviewed for 3 business days', r.b < 0.10),
      (r.s + (r.f - r.s) * 0.15, 'Status Change', ${changed('Submitted', 'Pending Additional Information')}, r.a < 0.25),
      (r.s + (r.f - r.s) * 0.30, 'Reminder', 'Reminder 1 sent: no additional information from the requester after 5 business days',
        r.a < 0.25 and (r.f - r.s) * 0.30 > interval '10 days'),
      (r.s + (r.f - r.s) * 0.45, 'Submission', '${SUBMITTED_TEXT}', r.a < 0.25),
      (r.s + (r.f - r.s) * 0.55, 'Status Change', ${changed('Submitted', 'Approved')}, r.c < 0.03 and r.done is not null),
      (r.s + (r.f - r.s) * 0.60, 'Email', 'Sent "Request Approved"', r.c < 0.03 and r.done is not null),
      (r.s + (r.f - r.s) * 0.70, 'Status Change', ${changed('Approved', 'Draft')}, r.c < 0.03 and r.done is not null),
      (r.s + (r.f - r.s) * 0.80, 'Submission', '${SUBMITTED_TEXT}', r.c < 0.03 and r.done is not null),
      (coalesce(r.done, r.s + (now() - r.s) * 0.6), 'Status Change',
        'Status changed from "Submitted" to "' || r.status || '"'
          || case when r.status = 'Closed' and r.b > 0.6 then ': closed automatically: no answer from the requester after 20 business days' else '' end,
        r.status <> 'Submitted'),
      (coalesce(r.done, now()) + interval '1 minute', 'Email', 'Sent "Request ' || r.status || '"', r.done is not null)
    ) as e(at, type, text, keep)
    where e.keep`);
  await client.query(`set local session_replication_role = origin`);
  await client.query('analyze request_activity');
  const { rows } = await client.query(`select id from requests where request_number > ${FIRST_REQUEST_NUMBER} order by id`);
  for (let i = 0; i < rows.length; i += 5000) {
    await client.query(`select report_rollup_refresh($1::int[])`, [rows.slice(i, i + 5000).map((r: { id: number }) => r.id)]);
  }
}

/** Migrates, seeds the reference data and fills the requests once; returns how many bench requests there are. */
export async function seedListsDatabase(databaseUrl: string, count: number): Promise<number> {
  await prepareDatabase(databaseUrl, log, { devAccounts: false });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const have = Number((await client.query(`select count(*) as n from requests where request_number > ${FIRST_REQUEST_NUMBER}`)).rows[0].n);
    const audited = Number((await client.query(`select count(*) as n from request_report_facts`)).rows[0].n) > 0;
    if (have === count && audited) { log(`${have} requests already there: reused`); return have; }
    const started = Date.now();
    await client.query('begin');
    if (have !== count) {
      if (have) {
        // The audit trail is never deleted with its request (a RESTRICT key): the bench's own rows go first.
        await client.query(`delete from request_activity where request_id in (select id from requests where request_number > ${FIRST_REQUEST_NUMBER})`);
        await client.query(`delete from requests where request_number > ${FIRST_REQUEST_NUMBER}`);
      }
      await seedUsers(client);
      await seedRequests(client, count);
    }
    await seedAuditTrail(client);
    await client.query('commit');
    await client.query('vacuum analyze request_activity');
    await client.query('vacuum analyze request_status_stays');
    await client.query('vacuum analyze request_report_facts');
    await client.query('vacuum analyze requests'); // sets the visibility map: counts read the indexes only
    log(`${count} requests inserted in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return count;
  } finally {
    await client.end();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const i = process.argv.indexOf('--requests');
  const count = i > 0 ? Number(process.argv[i + 1]) : 100_000;
  seedListsDatabase(LISTS_DATABASE_URL, count).catch((error) => { console.error(error); process.exit(1); });
}
