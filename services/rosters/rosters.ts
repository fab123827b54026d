/**
 * Rosters uploaded in bulk: a requester's file of requests of one kind, each row checked by the form's own rules
 * (domain/roster-rows.ts), valid rows made drafts of the uploader through the one draft use case (`createDraft`, within
 * the open-drafts quota), invalid rows kept with their errors until fixed in place, and "Submit all valid" submitting
 * each draft through the one submit use case (`patchRequest`): each its own workflow, its confirmation email, and the
 * per-target mail limits a form's submit counts against. The roster and its rows live in PostgreSQL (`rosters`,
 * `roster_rows`): any API process shows the same state, and each row is claimed there before it is submitted.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import {
  EDITABLE_ROW_STATUSES, officeToday, ROSTER_MESSAGES, ROSTER_PAGE_SIZE, rosterColumns, rosterKindDefinition, rosterKindsFor,
  rosterRequestType, STATUS, SUBMITTABLE_ROW_STATUSES, type RosterKind, type RosterRowStatus,
} from '../../domain';
import { validateRosterRow } from '../../domain/roster-rows';
import { formToPayload } from '../../domain/request-form-mapping';
import { kysely } from '../../db/kysely';
import type { CreateRequestBody } from '../../contract/request.schema';
import type { CommandContext } from '../context';
import { forbidden, invalid, notFound, Refusal } from '../refusals';
import { createDraft, patchRequest } from '../requests/request-commands';
import { readRosterFile } from './roster-file';

/** Rows submitted at once by one roster's submit: enough to overlap the workflows' answers, few enough to leave the pool to others. */
const SUBMIT_CONCURRENCY = 4;
/** A row claimed this long ago and still not done was left by a process that stopped: the next "Submit all valid" takes it again. */
const STALE_CLAIM_SECONDS = 120;

export interface RosterRowView {
  id: number; line: number; values: Record<string, string>; errors: Record<string, string>;
  status: RosterRowStatus; requestId: number | null; outcome: string | null;
}
export interface RosterView {
  id: number; kind: RosterKind; fileName: string; createdAt: Date; ownerId: number;
  columns: { name: string; label: string }[];
  counts: Record<RosterRowStatus, number> & { total: number };
  /** rows still queued or being submitted */
  submitting: boolean;
  message: string | null;
  rows: { total: number; skip: number; limit: number; data: RosterRowView[] };
}

const emptyCounts = (): RosterView['counts'] =>
  ({ invalid: 0, valid: 0, draft: 0, queued: 0, submitting: 0, submitted: 0, refused: 0, total: 0 });

const rowView = (r: { id: number; line: number; values: Record<string, string>; errors: Record<string, string>; status: RosterRowStatus; request_id: number | null; outcome: string | null }): RosterRowView =>
  ({ id: r.id, line: r.line, values: r.values, errors: r.errors, status: r.status, requestId: r.request_id, outcome: r.outcome });

/** The words a refused submit or draft leaves on its row: the form's messages when it names fields, else its message. */
const outcomeOf = (refusal: Refusal) => {
  const fields = [...new Set(Object.values(refusal.fieldErrors))];
  return fields.length ? fields.join('; ') : refusal.message;
};

function assertKind(ctx: CommandContext, kind: RosterKind): void {
  if (!rosterKindsFor(ctx.user.isExternal).includes(kind)) throw forbidden('External requesters may only request Clinician certificates');
}

const today = (ctx: CommandContext) => officeToday(ctx.clockPolicy.calendar.timeZone);

/** The draft a valid row becomes: the kind's payload of its form, as the form would save it. */
function draftBody(ctx: CommandContext, kind: RosterKind, values: Record<string, string>): CreateRequestBody {
  const { form } = validateRosterRow(kind, values, { isExternal: ctx.user.isExternal, today: today(ctx) });
  const payload = formToPayload(form, rosterKindDefinition(kind), 'create', { isExternal: ctx.user.isExternal, isAdmin: false });
  return { ...rosterRequestType(kind), ...payload } as CreateRequestBody;
}

/** The roster, for its owner (administrators may read any). */
async function rosterFor(ctx: CommandContext, id: number, write: boolean) {
  const roster = await kysely(ctx.em).selectFrom('rosters').selectAll().where('id', '=', id).executeTakeFirst();
  if (!roster) throw notFound(`No roster found for id '${id}'`);
  if (roster.owner_id !== ctx.user.id && (write || !ctx.user.isAdmin)) throw forbidden('Only the roster’s uploader can do this');
  return roster as typeof roster & { kind: RosterKind };
}

type RowState = { status: RosterRowStatus; requestId: number | null; outcome: string | null; errors?: Record<string, string> };

async function saveRowState(em: EntityManager, rowId: number, state: RowState): Promise<void> {
  await kysely(em).updateTable('roster_rows').set({
    status: state.status, request_id: state.requestId, outcome: state.outcome, updated_at: sql<Date>`now()`,
    ...(state.errors ? { errors: JSON.stringify(state.errors) } : {}),
  }).where('id', '=', rowId).execute();
}

/**
 * A valid row's draft, when the quota has room: the row's new state. Over the quota the row waits for room; another
 * refusal of the draft (a rule the form's check does not cover) is the row's errors.
 */
async function makeDraft(ctx: CommandContext, kind: RosterKind, values: Record<string, string>): Promise<RowState> {
  try {
    const draft = await createDraft({ ...ctx, em: ctx.em.fork() }, draftBody(ctx, kind, values));
    return { status: 'draft', requestId: draft.id, outcome: null };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    if (error.kind === 'over-quota') return { status: 'valid', requestId: null, outcome: ROSTER_MESSAGES.noRoom(ctx.quotas.openDrafts) };
    return { status: 'invalid', requestId: null, outcome: outcomeOf(error), errors: error.fieldErrors };
  }
}

// ---- upload ----------------------------------------------------------------------------------------------------

export interface RosterUpload { kind: RosterKind; fileName: string; bytes: Buffer }

/**
 * Reads and checks the file (a refusal of the file creates nothing), keeps the roster and its rows, then makes each
 * valid row a draft while the open-drafts quota has room.
 */
export async function uploadRoster(ctx: CommandContext, upload: RosterUpload): Promise<RosterView> {
  assertKind(ctx, upload.kind);
  const rows = await readRosterFile(upload.bytes, upload.kind);
  const checked = rows.map((row) => ({ ...row, errors: validateRosterRow(upload.kind, row.cells, { isExternal: ctx.user.isExternal, today: today(ctx) }).errors }));
  const rosterId = await ctx.em.fork().transactional(async (tx) => {
    const db = kysely(tx);
    const { id } = await db.insertInto('rosters').values({ owner_id: ctx.user.id, kind: upload.kind, file_name: upload.fileName.slice(0, 255) })
      .returning('id').executeTakeFirstOrThrow();
    await db.insertInto('roster_rows').values(checked.map((row) => ({
      roster_id: id, line: row.line, values: JSON.stringify(row.cells), errors: JSON.stringify(row.errors),
      status: (Object.keys(row.errors).length ? 'invalid' : 'valid') as RosterRowStatus,
    }))).execute();
    return id;
  });
  const valid = await kysely(ctx.em).selectFrom('roster_rows').select(['id', 'values']).where('roster_id', '=', rosterId).where('status', '=', 'valid')
    .orderBy('line').execute();
  let made = 0;
  let full = false;
  for (const row of valid) {
    if (full) break;
    const state = await makeDraft(ctx, upload.kind, row.values);
    if (state.status === 'valid') full = true;
    else made += state.status === 'draft' ? 1 : 0;
    await saveRowState(ctx.em, row.id, state);
  }
  if (full) {
    await kysely(ctx.em).updateTable('roster_rows').set({ outcome: ROSTER_MESSAGES.noRoom(ctx.quotas.openDrafts) })
      .where('roster_id', '=', rosterId).where('status', '=', 'valid').execute();
  }
  const view = await readRoster(ctx, rosterId, {});
  const waiting = view.counts.valid;
  return { ...view, message: waiting ? ROSTER_MESSAGES.roomSummary(made, waiting) : null };
}

// ---- read ------------------------------------------------------------------------------------------------------

/** The roster with its counts by state and a page of its rows (line order; `status` keeps rows in that state). */
export async function readRoster(ctx: CommandContext, id: number, page: { skip?: number; limit?: number; status?: RosterRowStatus }): Promise<RosterView> {
  const roster = await rosterFor(ctx, id, false);
  const db = kysely(ctx.em);
  const counted = await db.selectFrom('roster_rows').select(['status', sql<string>`count(*)`.as('n')]).where('roster_id', '=', id).groupBy('status').execute();
  const counts = emptyCounts();
  for (const c of counted) { counts[c.status] = Number(c.n); counts.total += Number(c.n); }
  const skip = page.skip ?? 0;
  const limit = Math.min(page.limit ?? ROSTER_PAGE_SIZE, ROSTER_PAGE_SIZE);
  let rows = db.selectFrom('roster_rows').selectAll().where('roster_id', '=', id);
  if (page.status) rows = rows.where('status', '=', page.status);
  const data = await rows.orderBy('line').offset(skip).limit(limit).execute();
  return {
    id: roster.id, kind: roster.kind, fileName: roster.file_name, createdAt: roster.created_at, ownerId: roster.owner_id,
    columns: rosterColumns(roster.kind).map((c) => ({ name: c.name, label: c.label })),
    counts, submitting: counts.queued + counts.submitting > 0, message: null,
    rows: { total: page.status ? counts[page.status] : counts.total, skip, limit, data: data.map(rowView) },
  };
}

export interface RosterSummary { id: number; kind: RosterKind; fileName: string; createdAt: Date; total: number; submitted: number; invalid: number }

/** The caller's own rosters, newest first (the last 50). */
export async function listRosters(ctx: CommandContext): Promise<RosterSummary[]> {
  const rows = await kysely(ctx.em).selectFrom('rosters as r').innerJoin('roster_rows as x', 'x.roster_id', 'r.id')
    .select(['r.id', 'r.kind', 'r.file_name', 'r.created_at',
      sql<string>`count(*)`.as('total'),
      sql<string>`count(*) filter (where x.status = 'submitted')`.as('submitted'),
      sql<string>`count(*) filter (where x.status = 'invalid')`.as('invalid')])
    .where('r.owner_id', '=', ctx.user.id).groupBy('r.id').orderBy('r.id', 'desc').limit(50).execute();
  return rows.map((r) => ({
    id: r.id, kind: r.kind as RosterKind, fileName: r.file_name, createdAt: r.created_at, total: Number(r.total), submitted: Number(r.submitted), invalid: Number(r.invalid),
  }));
}

// ---- fix a row in place ----------------------------------------------------------------------------------------

/**
 * A row's cells as corrected in the table (the cells sent replace the row's), checked again by the form's rules: a
 * valid row becomes a draft (or its draft takes the new values); an invalid one keeps its errors and its draft as is.
 */
export async function editRosterRow(ctx: CommandContext, rosterId: number, rowId: number, cells: Record<string, string>): Promise<RosterRowView> {
  const roster = await rosterFor(ctx, rosterId, true);
  const row = await kysely(ctx.em).selectFrom('roster_rows').selectAll().where('id', '=', rowId).where('roster_id', '=', rosterId).executeTakeFirst();
  if (!row) throw notFound(`No row ${rowId} in roster ${rosterId}`);
  if (!EDITABLE_ROW_STATUSES.includes(row.status)) throw invalid(ROSTER_MESSAGES.notEditable);
  const names = new Set(rosterColumns(roster.kind).map((c) => c.name));
  const values: Record<string, string> = { ...row.values };
  for (const [name, text] of Object.entries(cells)) if (names.has(name)) values[name] = text.trim();
  const { errors } = validateRosterRow(roster.kind, values, { isExternal: ctx.user.isExternal, today: today(ctx) });
  await kysely(ctx.em).updateTable('roster_rows').set({ values: JSON.stringify(values), errors: JSON.stringify(errors), updated_at: sql<Date>`now()` })
    .where('id', '=', rowId).execute();
  let state: RowState;
  if (Object.keys(errors).length) state = { status: 'invalid', requestId: row.request_id, outcome: null };
  else if (row.request_id) state = await updateDraft(ctx, roster.kind, row.request_id, values, row.status);
  else state = await makeDraft(ctx, roster.kind, values);
  await saveRowState(ctx.em, rowId, state);
  const saved = await kysely(ctx.em).selectFrom('roster_rows').selectAll().where('id', '=', rowId).executeTakeFirstOrThrow();
  return rowView(saved);
}

/** A row's draft takes the row's corrected values (the form's update payload: emptied cells clear their fields). */
async function updateDraft(ctx: CommandContext, kind: RosterKind, requestId: number, values: Record<string, string>, status: RosterRowStatus): Promise<RowState> {
  const { form } = validateRosterRow(kind, values, { isExternal: ctx.user.isExternal, today: today(ctx) });
  const payload = formToPayload(form, rosterKindDefinition(kind), 'update', { isExternal: ctx.user.isExternal, isAdmin: false });
  try {
    await patchRequest({ ...ctx, em: ctx.em.fork() }, requestId, payload as never);
    return { status: status === 'refused' ? 'refused' : 'draft', requestId, outcome: status === 'refused' ? null : null };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    if (error.kind === 'not-found') return makeDraft(ctx, kind, values); // the draft was deleted meanwhile
    return { status: 'invalid', requestId, outcome: outcomeOf(error), errors: error.fieldErrors };
  }
}

// ---- submit all valid ------------------------------------------------------------------------------------------

/**
 * "Submit all valid": queues every row that is (or may become) a draft, and submits them in the background of this
 * process, SUBMIT_CONCURRENCY at a time; the answer is the roster with its rows queued, and its progress is read
 * from the rows (GET). Rows a stopped process left claimed are queued again.
 */
export async function submitAllValid(ctx: CommandContext, rosterId: number, onError: (error: unknown) => void = () => {}): Promise<RosterView> {
  const roster = await rosterFor(ctx, rosterId, true);
  const db = kysely(ctx.em);
  await db.updateTable('rosters').set({ submit_requested_at: sql<Date>`now()` }).where('id', '=', rosterId).execute();
  await db.updateTable('roster_rows').set({ status: 'queued', outcome: null, updated_at: sql<Date>`now()` })
    .where('roster_id', '=', rosterId)
    .where((eb) => eb.or([
      eb('status', 'in', [...SUBMITTABLE_ROW_STATUSES]),
      eb.and([eb('status', '=', 'submitting'), eb('updated_at', '<', sql<Date>`now() - make_interval(secs => ${STALE_CLAIM_SECONDS})`)]),
    ]))
    .execute();
  const background = { ...ctx, em: ctx.em.fork() };
  void Promise.all(Array.from({ length: SUBMIT_CONCURRENCY }, () => drain(background, roster.kind, rosterId, onError)));
  return readRoster(ctx, rosterId, {});
}

/** Claims queued rows one at a time (first line first) and submits each until none is left. */
async function drain(ctx: CommandContext, kind: RosterKind, rosterId: number, onError: (error: unknown) => void): Promise<void> {
  for (;;) {
    let claimed;
    try {
      claimed = await sql<{ id: number; values: Record<string, string>; request_id: number | null }>`
        update "roster_rows" set "status" = 'submitting', "updated_at" = now()
        where "id" = (select "id" from "roster_rows" where "roster_id" = ${rosterId} and "status" = 'queued' order by "line" limit 1 for update skip locked)
        returning "id", "values", "request_id"`.execute(kysely(ctx.em.fork()));
    } catch (error) {
      onError(error);
      return;
    }
    const row = claimed.rows[0];
    if (!row) return;
    let state: RowState;
    try {
      state = await submitRow(ctx, kind, row);
    } catch (error) {
      onError(error);
      state = { status: 'refused', requestId: row.request_id, outcome: 'The request could not be submitted just now: press “Submit all valid” again' };
    }
    await saveRowState(ctx.em.fork(), row.id, state).catch(onError);
  }
}

/** One row: its draft (made now if it waited for room), then the submit use case, as the form's Submit button calls it. */
async function submitRow(ctx: CommandContext, kind: RosterKind, row: { values: Record<string, string>; request_id: number | null }): Promise<RowState> {
  let requestId = row.request_id;
  if (!requestId) {
    const made = await makeDraft(ctx, kind, row.values);
    if (made.status !== 'draft') return made.status === 'valid' ? { ...made, status: 'refused' } : made;
    requestId = made.requestId!;
  }
  try {
    const submitted = await patchRequest({ ...ctx, em: ctx.em.fork() }, requestId, { status: STATUS.submitted } as never);
    return submitted.status === STATUS.draft
      ? { status: 'refused', requestId, outcome: 'The request is still a draft' }
      : { status: 'submitted', requestId, outcome: null };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return { status: 'refused', requestId, outcome: outcomeOf(error) };
  }
}
