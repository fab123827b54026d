/**
 * Search Submission History (spec 2 §7.5): contains-matching on names, company and email (trigram indexes),
 * VIN and plate with dashes and spaces ignored (expression indexes), submission day range with the end day
 * inclusive, drafts excluded, newest submission first, at most `limit` rows (default 15).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  normalizeVehicleId, requestTypeLabelOf, SEARCH_DEFAULT_LIMIT, searchErrors, type SearchParams,
  officeDayAfter, officeDayStart,
} from '../../domain';
import { badRequest } from '../errors';
import { containsPattern } from './sql-text';

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

/** `timeZone`: the office's, whose days a search by dates means. */
export function searchSql(params: SearchParams, timeZone: string): { sql: string; values: unknown[]; limit: number } {
  const errors = searchErrors(params);
  if (Object.keys(errors).length) throw badRequest(errors.search ?? Object.values(errors)[0], errors);
  const limit = Math.min(params.limit === undefined || params.limit === '' ? SEARCH_DEFAULT_LIMIT : Number(params.limit), MAX_LIMIT);
  const where: string[] = [`status <> 'Draft'`, 'submit_date is not null'];
  const values: unknown[] = [];
  for (const [param, column] of Object.entries(CONTAINS)) {
    const text = String(params[param as keyof SearchParams] ?? '').trim();
    if (text) { where.push(`"${column}" ilike ?`); values.push(containsPattern(text)); }
  }
  for (const [param, column] of Object.entries(VEHICLE)) {
    const text = normalizeVehicleId(String(params[param as keyof SearchParams] ?? ''));
    if (text) { where.push(`upper(regexp_replace("${column}", '[-\\s]', '', 'g')) like ?`); values.push(containsPattern(text)); }
  }
  const day = (iso: string | undefined) => (iso && /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : null);
  if (params.searchFrom && !day(params.searchFrom)) throw badRequest('searchFrom must be a date', { searchFrom: 'Date input not valid.' });
  if (params.searchTo && !day(params.searchTo)) throw badRequest('searchTo must be a date', { searchTo: 'Date input not valid.' });
  const from = day(params.searchFrom);
  const to = day(params.searchTo);
  if (from) { where.push('submit_date >= ?'); values.push(officeDayStart(from, timeZone)); }
  if (to) { where.push('submit_date < ?'); values.push(officeDayAfter(to, timeZone)); }
  const sql = `select id, request_number, requester_name, request_type, certificate_type, auto_type, submit_date, completed_date, employer_type, status
    from requests where ${where.join(' and ')} order by submit_date desc, id desc limit ${limit}`;
  return { sql, values, limit };
}

export async function searchRequests(em: EntityManager, params: SearchParams, timeZone: string): Promise<{ limit: number; data: SearchRow[] }> {
  const { sql, values, limit } = searchSql(params, timeZone);
  const rows = await em.getConnection().execute<Record<string, any>[]>(sql, values, 'all');
  return {
    limit,
    data: rows.map((r) => ({
      id: r.id, requestNumber: r.request_number, requesterName: r.requester_name, requestType: r.request_type,
      typeLabel: requestTypeLabelOf({ requestType: r.request_type, certificateType: r.certificate_type, autoType: r.auto_type }),
      submitDate: r.submit_date, completedDate: r.completed_date, employerType: r.employer_type, status: r.status,
    })),
  };
}
