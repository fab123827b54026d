/**
 * Search Submission History (spec 2 §7.5): contains-matching on names, company and email (trigram indexes),
 * VIN and plate with dashes and spaces ignored (expression indexes), submission day range with the end day
 * inclusive, drafts excluded, newest submission first, at most `limit` rows (default 15).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, type RawBuilder } from 'kysely';
import {
  normalizeVehicleId, requestTypeLabelOf, SEARCH_DEFAULT_LIMIT, searchErrors, type SearchParams,
  officeDayAfter, officeDayStart,
} from '../../domain';
import { kysely } from '../../db/kysely';
import { invalid } from '../refusals';
import { containsPattern } from '../desk/sql-text';

const MAX_LIMIT = 1000;

const CONTAINS: Record<string, string> = {
  clinLastName: 'last_name',
  reqstrLastName: 'requester_last_name',
  reqstrCompany: 'requester_company',
  reqstrEmail: 'requester_email',
  driverName: 'driver_name',
};
const VEHICLE: Record<string, string> = { fleetVIN: 'vehicle_id_number', plateNumber: 'plate_number' };

interface SearchRow {
  id: number; requestNumber: number | null; requesterName: string | null; requestType: string; typeLabel: string;
  submitDate: Date | null; completedDate: Date | null; employerType: string; status: string;
}

/** A search's row as the statement answers it. */
interface Row {
  id: number; request_number: number | null; requester_name: string | null; request_type: string; certificate_type: string | null;
  auto_type: string | null; submit_date: Date | null; completed_date: Date | null; employer_type: string; status: string;
}

/** `timeZone`: the office's, whose days a search by dates means. Column names below are ours, never input. */
export function searchSql(params: SearchParams, timeZone: string): { statement: RawBuilder<Row>; limit: number } {
  const errors = searchErrors(params);
  if (Object.keys(errors).length) throw invalid(errors.search ?? Object.values(errors)[0], errors);
  const limit = Math.min(params.limit === undefined || params.limit === '' ? SEARCH_DEFAULT_LIMIT : Number(params.limit), MAX_LIMIT);
  const where: RawBuilder<unknown>[] = [sql`status <> 'Draft'`, sql`submit_date is not null`];
  for (const [param, column] of Object.entries(CONTAINS)) {
    const text = String(params[param as keyof SearchParams] ?? '').trim();
    if (text) where.push(sql`${sql.ref(column)} ilike ${containsPattern(text)}`);
  }
  for (const [param, column] of Object.entries(VEHICLE)) {
    const text = normalizeVehicleId(String(params[param as keyof SearchParams] ?? ''));
    if (text) where.push(sql`upper(regexp_replace(${sql.ref(column)}, '[-\\s]', '', 'g')) like ${containsPattern(text)}`);
  }
  const day = (iso: string | undefined) => (iso && /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : null);
  if (params.searchFrom && !day(params.searchFrom)) throw invalid('searchFrom must be a date', { searchFrom: 'Date input not valid.' });
  if (params.searchTo && !day(params.searchTo)) throw invalid('searchTo must be a date', { searchTo: 'Date input not valid.' });
  const from = day(params.searchFrom);
  const to = day(params.searchTo);
  if (from) where.push(sql`submit_date >= ${officeDayStart(from, timeZone)}`);
  if (to) where.push(sql`submit_date < ${officeDayAfter(to, timeZone)}`);
  const statement = sql<Row>`select id, request_number, requester_name, request_type, certificate_type, auto_type, submit_date, completed_date, employer_type, status
    from requests where ${sql.join(where, sql` and `)} order by submit_date desc, id desc limit ${sql.lit(limit)}`;
  return { statement, limit };
}

export async function searchRequests(em: EntityManager, params: SearchParams, timeZone: string): Promise<{ limit: number; data: SearchRow[] }> {
  const { statement, limit } = searchSql(params, timeZone);
  const { rows } = await statement.execute(kysely(em));
  return {
    limit,
    data: rows.map((r) => ({
      id: r.id, requestNumber: r.request_number, requesterName: r.requester_name, requestType: r.request_type,
      typeLabel: requestTypeLabelOf({ requestType: r.request_type, certificateType: r.certificate_type, autoType: r.auto_type }),
      submitDate: r.submit_date, completedDate: r.completed_date, employerType: r.employer_type, status: r.status,
    })),
  };
}
