/**
 * One roster row checked by the form's own rules (domain/request-rules.ts `validateRequestForm`), with the form's
 * messages. The supporting documents a kind requires are attached to each draft afterwards (the draft's page), so the
 * row is checked as if they were there: the submit checks them for real and says so in the row's outcome.
 *
 * Not re-exported by domain/index.ts: it loads ajv (as request-rules.ts does).
 */
import { validateRequestForm } from './request-rules';
import { rosterColumns, rosterKindDefinition, rosterRowToForm, type RosterKind } from './rosters';

export function validateRosterRow(kind: RosterKind, cells: Readonly<Record<string, string>>, ctx: { isExternal: boolean; today: string }) {
  const form = rosterRowToForm(cells, rosterColumns(kind));
  const errors = validateRequestForm(rosterKindDefinition(kind), form, { ...ctx, documentCount: 1 });
  return { form, errors };
}
