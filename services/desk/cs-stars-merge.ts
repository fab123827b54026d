/**
 * The PostgreSQL half of a CS-STARS upload: the staging table the raw bytes are copied into, and the one statement that
 * merges it into claims_data and flags the letters it makes stale, all inside the upload's
 * transaction.
 *
 * Why it is shaped so (bench/desk.bench.ts measures it):
 *   - staging is a TEMP table of text columns: no WAL, and COPY cannot refuse a value there (Node's checker decides);
 *   - claims are keyed by claim number and physician: one LEFT JOIN of the staged rows to claims_data sorts them into
 *     new keys (a plain INSERT) and changed claims (an UPDATE of the rows that differ; equal ones are not touched).
 *     That is about a third cheaper than INSERT … ON CONFLICT, whose speculative insertion writes an extra WAL record
 *     and probes the key index twice per row, and a re-upload hashes the claims once, not twice. It is safe because
 *     the upload holds `SHARE ROW EXCLUSIVE` on claims_data (uploads queue behind each other; reading goes on);
 *   - work_mem is raised for this transaction only, so the hash joins and the staged rows stay in memory;
 *   - dates are cast with DateStyle ISO, MDY (mm/dd/yyyy and yyyy-mm-dd, the two forms the checker lets through),
 *     several times cheaper than to_date.
 */
import { sql } from 'kysely';
import type pg from 'pg';
import { queryOn } from '../../db/kysely';
import type { ClaimField } from '../../domain';
import { CS_STARS_IMPORT_AUTHOR, GENERATED_DOCUMENT_AUTHOR, STALE_LETTER_ACTIVITY_TYPE, STALE_LETTER_CLAIMS_LISTED, STALE_LETTER_LABEL } from '../../domain';

export interface MergeCounts { inserted: number; updated: number; flagged: number }

/** Creates the staging table (columns c0..cN in the file's column order) and answers the COPY statement that fills it. */
export async function createStaging(client: pg.Client, fields: (ClaimField | null)[]): Promise<string> {
  await client.query(`create temp table claims_staging (${fields.map((_, i) => `c${i} text`).join(', ')}) on commit drop`);
  return 'copy claims_staging from stdin with (format csv, header true)';
}

/**
 * SQL for each field of a staging row, typed as claims_data stores it: trimmed, and the middle initial without its
 * dot. checkClaimRow drops the first dot and then wants one letter, so for every value it lets through this is the
 * same key (the checker's duplicate check and the claim key agree).
 */
function typedColumns(fields: (ClaimField | null)[]) {
  const col = (f: ClaimField) => {
    const i = fields.indexOf(f);
    return i < 0 ? `''` : `coalesce(btrim(c${i}), '')`;
  };
  const day = (f: ClaimField) => `(${col(f)}::date + time '11:00') at time zone 'UTC'`;
  return `${day('exportDate')} as export_date, ${col('physicianLastName')} as physician_last_name,
    ${col('physicianFirstName')} as physician_first_name, replace(${col('physicianMiddleInitial')}, '.', '') as physician_middle_initial,
    ${col('involvement')} as involvement, ${col('claimNumber')} as claim_number, ${col('type')} as type, ${col('status')} as status,
    ${col('outcome')} as outcome, ${day('claimDate')} as claim_date, ${day('reportDate')} as report_date,
    replace(replace(${col('indemnityPaid')}, '$', ''), ',', '')::numeric(15,2) as indemnity_paid, ${col('description')} as description`;
}

const KEY_MATCH = `d.claim_number = s.claim_number and d.physician_last_name = s.physician_last_name
  and d.physician_first_name = s.physician_first_name and d.physician_middle_initial = s.physician_middle_initial`;
const INSERTED = ['export_date', 'physician_last_name', 'physician_first_name', 'physician_middle_initial', 'involvement', 'claim_number',
  'type', 'status', 'outcome', 'claim_date', 'report_date', 'indemnity_paid', 'description'];
const COMPARED = ['involvement', 'type', 'status', 'outcome', 'claim_date', 'report_date', 'indemnity_paid', 'description'];
const utcDay = (column: string) => `(${column} at time zone 'UTC')::date`;
const usDay = (column: string) => `to_char(${column} at time zone 'UTC', 'MM/DD/YYYY')`;

/**
 * One statement: the claims that differ are updated, the new ones inserted; then every credentialing request with a
 * generated letter whose clinician (last and first name, case-insensitive, as the claim search matches them) has an
 * added or changed claim reported within the request's dates (before or after the change) is flagged, once, with one
 * audit row naming those claims.
 */
function mergeSql(fields: (ClaimField | null)[]) {
  // SQL text of our own (column lists, typed staging columns, day expressions); the values are bound where they are used.
  const raw = (text: string) => sql.raw(text);
  const listed = STALE_LETTER_CLAIMS_LISTED;
  return sql<{ inserted: string; updated: string; flagged: string }>`
    with joined as materialized (
      select s.*, d.id as existing_id, d.report_date as old_report_date,
        d.id is not null and (${raw(COMPARED.map((c) => `d.${c}`).join(', '))}) is distinct from (${raw(COMPARED.map((c) => `s.${c}`).join(', '))}) as differs
      from (select ${raw(typedColumns(fields))} from claims_staging) s left join claims_data d on ${raw(KEY_MATCH)}),
    updated as (
      update claims_data d set updated_at = now(), export_date = j.export_date,
        ${raw(COMPARED.map((c) => `${c} = j.${c}`).join(', '))}
      from joined j where j.differs and d.id = j.existing_id),
    inserted as (
      insert into claims_data (created_at, updated_at, ${raw(INSERTED.join(', '))})
      select now(), now(), ${raw(INSERTED.map((c) => `j.${c}`).join(', '))} from joined j where j.existing_id is null),
    -- What the two statements above write, read from their input rather than from RETURNING (100,000 rows fewer to
    -- collect on a first upload): the upload's lock on claims_data makes the two the same.
    changed as (select * from joined where existing_id is null or differs),
    letters as (
      select r.id, lower(btrim(r.last_name)) as last_name, lower(btrim(r.first_name)) as first_name,
        ${raw(utcDay('r.date_from'))} as day_from, ${raw(utcDay('r.date_to'))} as day_to
      from requests r
      where r.id in (select doc.request_id from documents doc where doc.uploaded_by = ${GENERATED_DOCUMENT_AUTHOR} and doc.idempotency_key is not null)
        and r.request_type = 'credentialing' and r.letter_stale_since is null and r.date_from is not null and r.date_to is not null),
    hits as (
      select l.id as request_id, c.claim_number, c.report_date
      from letters l join changed c on lower(c.physician_last_name) = l.last_name and lower(c.physician_first_name) = l.first_name
      where ${raw(utcDay('c.report_date'))} between l.day_from and l.day_to
         or ${raw(utcDay('c.old_report_date'))} between l.day_from and l.day_to),
    stale as (
      select request_id, count(*) as claims,
        array_to_string((array_agg(claim_number || ' (reported ' || ${raw(usDay('report_date'))} || ')' order by report_date, claim_number))[1:${listed}::int], ', ') as listed
      from hits group by request_id),
    flagged as (
      update requests r set letter_stale_since = now()
      from stale s where r.id = s.request_id and r.letter_stale_since is null
      returning r.id, s.claims, s.listed),
    audited as (
      insert into request_activity (created_at, updated_at, request_id, date, activity_type, activity_text, performed_by)
      select now(), now(), f.id, now(), ${STALE_LETTER_ACTIVITY_TYPE},
        ${STALE_LETTER_LABEL}::text || ': a CS-STARS upload added or changed ' || case when f.claims = 1 then 'claim ' else f.claims || ' claims: ' end || f.listed
          || case when f.claims > ${listed}::int then ' and ' || (f.claims - ${listed}::int) || ' more' else '' end || ' within the letter''s period.',
        ${CS_STARS_IMPORT_AUTHOR}
      from flagged f
      returning 1)
    select count(*) filter (where existing_id is null) as inserted, count(*) filter (where differs) as updated,
      (select count(*) from audited) as flagged
    from joined`;
}

export async function mergeStaging(client: pg.Client, fields: (ClaimField | null)[]): Promise<MergeCounts> {
  await client.query(`set local datestyle = 'ISO, MDY'`);
  // The staging rows, the key hash of a re-upload and the claims to match against letters fit in memory at 100,000
  // rows with this much; at the default 4 MB they spill to temporary files.
  await client.query(`set local work_mem = '64MB'`);
  await client.query('lock table claims_data in share row exclusive mode');
  const result = await queryOn(client, mergeSql(fields));
  const row = result.rows[0];
  return { inserted: Number(row.inserted), updated: Number(row.updated), flagged: Number(row.flagged) };
}
