/**
 * What a list of requests shows (dashboards, search results): the fields its rows carry, the request type label and
 * the "Filter By Request Type" labels as conditions.
 */
import {
  AUTO_LIABILITY_CERTIFICATE, RENTAL_AUTO_TYPE, REQUEST_TYPE, REQUEST_TYPE_FILTERS, REQUEST_TYPE_LABEL, type RequestType,
} from './reference-lists';

/**
 * The fields a dashboard table shows or decides with (the UI's request columns and labels, the stale-letter list):
 * the dashboard call and the UI's table pages ask for these only, about a tenth of a whole request.
 */
export const DASHBOARD_FIELDS = [
  'requestNumber', 'requestType', 'certificateType', 'autoType', 'status', 'lastName', 'firstName', 'middleInitial',
  'personRole', 'vehicleIdNumber', 'requesterName', 'requesterEmail', 'createdAt', 'updatedAt', 'submitDate',
  'completedDate', 'letterStaleSince', 'dateFrom', 'dateTo',
  'requesterId', // whose row it is: one's own drafts offer Edit and Delete
] as const;

type RequestTypeFilter = (typeof REQUEST_TYPE_FILTERS)[number];
/** A certificate's label: this, then its certificate type. */
export const CERTIFICATE_LABEL_PREFIX = 'COI Request: ';
/** Rental cars have a label of their own (an Auto Liability certificate of the Rental auto type). */
export const RENTAL_FILTER: RequestTypeFilter = 'COI Request: Rental';

/**
 * The type label of result lists (and the reports' kind of a request: db/sql-functions.ts `report_kind_of` says the
 * same in SQL): the credentialing label, or "COI Request: <type>" (Rental for rental cars).
 */
export function requestTypeLabelOf(r: { requestType: string; certificateType?: string | null; autoType?: string | null }): string {
  if (r.requestType !== REQUEST_TYPE.certificate) return REQUEST_TYPE_LABEL[r.requestType as RequestType] ?? r.requestType;
  if (r.certificateType === AUTO_LIABILITY_CERTIFICATE && r.autoType === RENTAL_AUTO_TYPE) return RENTAL_FILTER;
  return r.certificateType ? `${CERTIFICATE_LABEL_PREFIX}${r.certificateType}` : REQUEST_TYPE_LABEL.certificate;
}

const isRequestTypeFilter = (label: unknown): label is RequestTypeFilter =>
  typeof label === 'string' && (REQUEST_TYPE_FILTERS as readonly string[]).includes(label);

/**
 * The rows a "Filter By Request Type" label stands for, as field conditions (the list query's operators: exact
 * match, `$ne`, `$or`), so the server filters by the label exactly as {@link requestTypeLabelOf} names rows:
 * Auto Liability leaves out rentals (their own label), including rows with no auto type. Null for an unknown label.
 */
export function requestTypeLabelWhere(label: string): Record<string, unknown> | null {
  if (!isRequestTypeFilter(label)) return null;
  if (label === REQUEST_TYPE_FILTERS[0]) return { requestType: REQUEST_TYPE.credentialing };
  if (label === RENTAL_FILTER) return { requestType: REQUEST_TYPE.certificate, certificateType: AUTO_LIABILITY_CERTIFICATE, autoType: RENTAL_AUTO_TYPE };
  const certificateType = label.slice(CERTIFICATE_LABEL_PREFIX.length);
  const where: Record<string, unknown> = { requestType: REQUEST_TYPE.certificate, certificateType };
  if (certificateType === AUTO_LIABILITY_CERTIFICATE) where.$or = [{ autoType: null }, { autoType: { $ne: RENTAL_AUTO_TYPE } }];
  return where;
}
