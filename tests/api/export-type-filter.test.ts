/**
 * The Export Requests sheet filtered by request type and dates writes the requests the dashboard's filter of the same
 * label lists (domain requestTypeLabelOf): Auto Liability without the rentals, Rental on its own, every certificate
 * type, within the office days of the range, never a draft. Written through the export's own COPY statement.
 */
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kysely } from '../../db/kysely';
import { createOrm, type Orm } from '../../db/orm';
import { AUTO_TYPES, CERTIFICATE_TYPES, DEFAULT_OFFICE_TIME_ZONE, REQUEST_TYPE_FILTERS, requestTypeLabelOf } from '../../domain';
import { whereOf, writeExportSheet } from '../../services/requests/request-export-sheet';
import { fileDatabaseUrl } from '../support/file-database';

let orm: Orm;
let dir: string;

interface Row { number: number; requestType: string; certificateType: string | null; autoType: string | null; status: string; submitted: Date | null }
const rows: Row[] = [];

beforeAll(async () => {
  orm = await createOrm(fileDatabaseUrl(), { poolMax: 2 });
  dir = await mkdtemp(path.join(os.tmpdir(), 'coi-export-filter-'));
  // Every kind, submitted on the office days around the range (Feb 2–3, 2032 in Portland), and drafts of each.
  const kinds: Array<Pick<Row, 'requestType' | 'certificateType' | 'autoType'>> = [
    { requestType: 'credentialing', certificateType: null, autoType: null },
    ...CERTIFICATE_TYPES.filter((t) => t !== 'Auto Liability').map((t) => ({ requestType: 'certificate', certificateType: t, autoType: null })),
    ...[...AUTO_TYPES, null].map((autoType) => ({ requestType: 'certificate', certificateType: 'Auto Liability', autoType })),
  ];
  const instants = ['2032-02-01T23:30:00-08:00', '2032-02-02T00:00:00-08:00', '2032-02-03T23:59:00-08:00', '2032-02-04T00:00:00-08:00'];
  for (const kind of kinds) {
    for (const at of instants) rows.push({ ...kind, number: 980_000 + rows.length, status: 'Submitted', submitted: new Date(at) });
    rows.push({ ...kind, number: 980_000 + rows.length, status: 'Draft', submitted: null });
  }
  const { rows: [requester] } = await sql<{ id: number }>`select id from users order by id limit 1`.execute(kysely(orm.em.fork()));
  await sql`insert into requests (created_at, updated_at, request_number, request_type, certificate_type, auto_type, status, source, submit_date,
      requester_id, employer_type, version)
    select now(), now(), x.n, x.t, x.c, x.a, x.s, 'external', x.d, ${requester.id}, 'external', 1
    from unnest(${rows.map((r) => r.number)}::int[], ${rows.map((r) => r.requestType)}::text[], ${rows.map((r) => r.certificateType)}::text[],
      ${rows.map((r) => r.autoType)}::text[], ${rows.map((r) => r.status)}::text[], ${rows.map((r) => r.submitted)}::timestamptz[]) as x(n, t, c, a, s, d)`
    .execute(kysely(orm.em.fork()));
});
afterAll(async () => {
  await orm?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function exportedNumbers(filterByType: string): Promise<number[]> {
  const file = path.join(dir, `${REQUEST_TYPE_FILTERS.indexOf(filterByType as never)}.xlsx`);
  const where = whereOf({ filename: 'coi_export_filter', dateFrom: '2032-02-02T11:00:00.000Z', dateTo: '2032-02-03T11:00:00.000Z', filterByType }, DEFAULT_OFFICE_TIME_ZONE);
  await writeExportSheet(fileDatabaseUrl(), file, where, DEFAULT_OFFICE_TIME_ZONE, async () => {});
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheet = workbook.worksheets[0];
  return sheet.getSheetValues().slice(2).map((values) => Number((values as unknown[])[1])).filter((n) => n >= 980_000).sort((a, b) => a - b);
}

describe('Export Requests by request type', () => {
  it.each([...REQUEST_TYPE_FILTERS])('%s: the submitted requests of that label on the office days of the range', async (label) => {
    const expected = rows.filter((r) => r.status !== 'Draft' && requestTypeLabelOf(r) === label
      && r.submitted! >= new Date('2032-02-02T00:00:00-08:00') && r.submitted! < new Date('2032-02-04T00:00:00-08:00')).map((r) => r.number);
    expect(expected).toHaveLength(label === 'COI Request: Auto Liability' ? 4 : 2); // fleet and no auto type; two days each
    expect(await exportedNumbers(label)).toEqual(expected);
  });
});
