/** The administrators' search (spec 2 §7.5): its parameters and their own rules. */
import { DESK_MESSAGES } from './messages';

const SEARCH_TEXT_PARAMS = ['clinLastName', 'reqstrLastName', 'reqstrCompany', 'reqstrEmail', 'fleetVIN', 'plateNumber', 'driverName'] as const;
type SearchTextParam = (typeof SEARCH_TEXT_PARAMS)[number];
export interface SearchParams extends Partial<Record<SearchTextParam, string>> { searchFrom?: string; searchTo?: string; limit?: number | string }

/** VIN and plate numbers match with dashes and spaces ignored. */
export const normalizeVehicleId = (text: string) => text.replace(/[-\s]/g, '').toUpperCase();

/** The search's own rules: at least one parameter besides the count; from not after to; count at least 1. */
export function searchErrors(params: SearchParams): Record<string, string> {
  const errors: Record<string, string> = {};
  const filled = [...SEARCH_TEXT_PARAMS, 'searchFrom', 'searchTo'].some((k) => String(params[k as keyof SearchParams] ?? '').trim());
  if (!filled) errors.search = DESK_MESSAGES.searchParamsNeeded;
  if (params.searchFrom && params.searchTo && params.searchFrom.slice(0, 10) > params.searchTo.slice(0, 10)) {
    errors.searchFrom = DESK_MESSAGES.fromAfterTo;
    errors.searchTo = DESK_MESSAGES.toBeforeFrom;
  }
  if (params.limit !== undefined && params.limit !== '') {
    const n = Number(params.limit);
    if (!Number.isInteger(n) || n < 1) errors.limit = 'Result count must be a whole number of at least 1';
  }
  return errors;
}
