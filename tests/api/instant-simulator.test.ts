/**
 * The instant-certificate simulator (services/instant/simulate.ts, POST /api/v1/instant-rules/simulate):
 * - its SQL compilation of a rule selects exactly the requests domain `evaluateRule` says the rule holds for (and,
 *   with the free-text guard, those `unreadFreeText` lets through), on a few hundred random certificate requests
 *   (nulls, empty and blank text, periods across office midnight, documents before and after the submit) and a few
 *   hundred random rules (every field, operator and value shape, nested groups, `or`, `not`, empty groups, what the
 *   editor's JSON may carry that the evaluator ignores). The inputs come from a seeded generator; the seed is in every
 *   failure message, and INSTANT_SIMULATOR_SEED=<seed> runs the same inputs again. They are submitted in 2020–2021,
 *   outside the route's 12 months;
 * - the route's figures on a small known history of the last months (per kind and month, median, the requests the
 *   office decided otherwise, the daily cap);
 * - a rule that cannot be evaluated is refused (400) in the editor's words.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_STATUSES, CERTIFICATE_TYPES, evaluateRule, FIELD_EDIT_ACTIVITY, fieldEditAuditText, INSTANT_MESSAGES, officeDayStart, requestFacts, RULE_FIELDS,
  RULE_OPERATORS, ruleProblems, STATUS, STATUS_CHANGE_ACTIVITY, unreadFreeText, zonedDay, formatOfficeDate, type CertificateType, type RuleCondition, type RuleGroup,
} from '../../domain';
import { RequestSchema, UserSchema } from '../../db/entities';
import { DEV_REQUESTER } from '../../db/seed-data';
import { kysely } from '../../db/kysely';
import { matchedRequestsSql, simulateRule } from '../../services/instant/simulate';
import { call, loginAdmin, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';
import { seededRandom, type SeededRandom } from '../support/seeded-random';

const SEED = Number(process.env.INSTANT_SIMULATOR_SEED ?? Math.floor(Math.random() * 2 ** 31));

let h: Harness;
let admin: Session;
let requesterId: number;
let timeZone: string;
const db = () => kysely(h.orm.em.fork());
const DAY = 86_400_000;
const HOUR = 3_600_000;

/** A form field's column (the ORM's naming). */
let columnOf: (name: string) => string;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  admin = await loginAdmin(h);
  timeZone = h.config.clockPolicy.calendar.timeZone;
  requesterId = (await h.orm.em.fork().findOneOrFail(UserSchema, { email: DEV_REQUESTER.email })).id;
  const properties = h.orm.em.getMetadata(RequestSchema).properties as Record<string, { fieldNames: string[] }>;
  columnOf = (name) => properties[name].fieldNames[0];
});
afterAll(async () => { await h?.stop(); });

type Values = Record<string, unknown>;
/** One request row (form fields by their names) and its documents' creation times; answers its id. */
async function insertRequest(fields: Values, row: { kind: string; status: string; submitDate: Date | null; completedDate?: Date | null; employerType?: string;
  requesterCompany?: string | null; requestNumber?: number | null; documents?: Date[] }): Promise<number> {
  const columns = Object.fromEntries(Object.entries(fields).map(([name, value]) => [columnOf(name), value]));
  const { id } = await db().insertInto('requests').values({
    ...columns, created_at: row.submitDate ?? new Date(), updated_at: new Date(), request_number: row.requestNumber ?? null, request_type: 'certificate',
    certificate_type: row.kind, status: row.status, source: 'external', submit_date: row.submitDate, completed_date: row.completedDate ?? null,
    requester_id: requesterId, employer_type: row.employerType ?? 'external', requester_company: row.requesterCompany ?? null, version: 1,
  } as never).returning('id').executeTakeFirstOrThrow();
  for (const [i, at] of (row.documents ?? []).entries()) {
    await db().insertInto('documents').values({
      request_id: id, name: `file-${i}.pdf`, stored_name: `r${id}-${i}-simulator.pdf`, mime_type: 'application/pdf', size: 1000, created_at: at, updated_at: at,
    } as never).execute();
  }
  return id;
}

async function audit(requestId: number, at: Date, type: string, text: string, statusTo: string | null = null): Promise<void> {
  await db().insertInto('request_activity').values({
    request_id: requestId, date: at, activity_type: type, activity_text: text, status_to: statusTo, performed_by: 'Test', created_at: at, updated_at: at,
  } as never).execute();
}

// ---- random requests and rules ------------------------------------------------------------------------------------

const TEXTS = ['', ' ', 'a', 'b', 'A', 'a,b', 'a, b', "O'Brien", 'x y', ' a ', 'é', '\u00a0', '\t\n', '\u3000', '\u200b', 'Other'];
const FORM_FIELDS = RULE_FIELDS.filter((f) => !['requesterType', 'requesterCompany', 'periodDays', 'daysUntilStart', 'documentCount'].includes(f.name));
const PERIOD_COLUMNS = ['dateFrom', 'dateTo', 'rentalStartDate', 'rentalEndDate', 'eventStartDate', 'eventEndDate'];
/** 2020-01-01 → 2021-06-01: a window far from the route's. */
const WINDOW = { from: new Date('2020-01-01T00:00:00Z'), to: new Date('2021-06-01T00:00:00Z') };

function randomFieldValue(random: SeededRandom, field: (typeof RULE_FIELDS)[number]): unknown {
  if (random.chance(0.2)) return null;
  if (field.type === 'boolean') return random.chance(0.5);
  if (field.type === 'choice' && field.options && random.chance(0.8)) return random.pick(field.options);
  return random.pick(TEXTS);
}

/** A request of random facts: submitted inside the window mostly (a few before it, a few drafts). */
function randomRequest(random: SeededRandom) {
  const fields: Values = {};
  for (const f of FORM_FIELDS) fields[f.name] = randomFieldValue(random, f);
  const submitMs = random.chance(0.05) ? WINDOW.from.getTime() - random.int(1, 100) * HOUR : WINDOW.from.getTime() + random.next() * (WINDOW.to.getTime() - WINDOW.from.getTime());
  const submitDate = random.chance(0.03) ? null : new Date(Math.round(submitMs / 1000) * 1000);
  for (const name of PERIOD_COLUMNS) fields[name] = null;
  // Periods around the submit, at any hour (office midnight falls between UTC days), sometimes ending before they start.
  const from = random.chance(0.15) ? null : new Date((submitDate?.getTime() ?? submitMs) + random.int(-5, 60) * DAY + random.int(0, 47) * 30 * 60_000);
  const to = random.chance(0.15) || !from ? null : new Date(from.getTime() + random.int(-2, 30) * DAY + random.int(-12, 12) * HOUR);
  for (const [a, b] of [['dateFrom', 'dateTo'], ['rentalStartDate', 'rentalEndDate'], ['eventStartDate', 'eventEndDate']]) { fields[a] = from; fields[b] = to; }
  const documents = Array.from({ length: random.int(0, 3) }, () => new Date((submitDate?.getTime() ?? submitMs) + random.int(-48, 48) * HOUR));
  return {
    fields,
    row: {
      kind: random.pick(CERTIFICATE_TYPES), status: random.chance(0.08) ? STATUS.draft : random.pick(ALL_STATUSES.filter((s) => s !== STATUS.draft)),
      submitDate, completedDate: null, employerType: random.pick(['internal', 'external', '']), requesterCompany: random.chance(0.2) ? null : random.pick(TEXTS),
      documents,
    },
  };
}

const NUMBERS: Array<number | string> = [-3, 0, 1, 2, 3, 5, 7, 10, 14, 30, 2.5, '7', ' 3 ', '1e1', '0.5'];

function randomValue(random: SeededRandom, field: (typeof RULE_FIELDS)[number], operator: string): RuleCondition['value'] {
  if (operator === 'null' || operator === 'notNull') return random.pick(['', undefined, null]);
  if (field.type === 'number') return random.pick(NUMBERS);
  if (field.type === 'boolean') return random.chance(0.5);
  const one = () => (field.type === 'choice' && field.options ? random.pick(field.options) : random.pick(TEXTS));
  if (operator === 'in' || operator === 'notIn') {
    const values = random.some([one(), one(), one(), one()], 4);
    return field.type === 'text' && random.chance(0.3) ? values.join(random.pick([',', ', ', ' ,'])) : values;
  }
  return one();
}

/** A random rule over the fields every one of `kinds` has; with what the editor's JSON may carry that the evaluator ignores. */
function randomRule(random: SeededRandom, kinds: readonly CertificateType[], depth = 1): RuleGroup {
  const fields = RULE_FIELDS.filter((f) => kinds.every((k) => f.kinds.includes(k)));
  const count = random.int(depth === 1 ? 1 : 0, depth === 1 ? 4 : 3);
  const rules: RuleGroup['rules'] = [];
  for (let i = 0; i < count; i += 1) {
    if (depth < 4 && random.chance(0.25)) { rules.push(randomRule(random, kinds, depth + 1)); continue; }
    const field = random.pick(fields);
    const operator = random.pick(RULE_OPERATORS[field.type]);
    const condition: RuleCondition & Record<string, unknown> = { field: field.name, operator, value: randomValue(random, field, operator) };
    if (random.chance(0.05)) condition.disabled = true;
    if (random.chance(0.05)) condition.muted = true;
    if (random.chance(0.05)) condition.valueSource = 'field';
    if (random.chance(0.1)) condition.id = `r${i}`;
    rules.push(condition);
  }
  const combinator = depth === 1 ? random.pick(['and', 'or']) : random.pick(['and', 'or', 'or', 'xor']);
  return { combinator, ...(random.chance(0.25) ? { not: true } : {}), rules };
}

describe(`the simulator's SQL against domain evaluateRule (INSTANT_SIMULATOR_SEED=${SEED})`, () => {
  const random = seededRandom(SEED);
  const requests: Array<{ id: number; kind: string; status: string; submitDate: Date | null; documents: Date[] }> = [];

  beforeAll(async () => {
    for (let i = 0; i < 300; i += 1) {
      const { fields, row } = randomRequest(random);
      requests.push({ id: await insertRequest(fields, row), kind: row.kind, status: row.status, submitDate: row.submitDate, documents: row.documents });
    }
  });

  /** The facts the evaluator reads for each request of the window and kinds, as the decision reads them from the row. */
  async function factsOf(kinds: readonly string[]) {
    const rows = await h.orm.em.fork().find(RequestSchema, { id: { $in: requests.map((r) => r.id) } });
    const byId = new Map(requests.map((r) => [r.id, r]));
    return rows.filter((r) => kinds.includes(r.certificateType!) && r.status !== STATUS.draft && r.submitDate
      && r.submitDate >= WINDOW.from && r.submitDate <= WINDOW.to)
      .map((r) => ({
        id: r.id, submitDate: r.submitDate!, kind: r.certificateType!,
        facts: requestFacts({
          certificateType: r.certificateType ?? null, employerType: r.employerType, requesterCompany: r.requesterCompany ?? null, submitDate: r.submitDate ?? null,
          // the documents it had when it was submitted
          documentCount: byId.get(r.id)!.documents.filter((at) => at.getTime() <= r.submitDate!.getTime()).length,
          fields: r as unknown as Record<string, unknown>,
        }, timeZone),
      }));
  }

  it('selects exactly the requests the evaluator matches, with and without the free-text guard, for every random rule', async () => {
    const mismatches: string[] = [];
    let rules = 0; let skipped = 0; let someButNotAll = 0;
    const factsByKinds = new Map<string, Awaited<ReturnType<typeof factsOf>>>();
    while (rules < 300) {
      const kinds = [...new Set(random.some(CERTIFICATE_TYPES, random.chance(0.7) ? 1 : 3))];
      const conditions = randomRule(random, kinds);
      if (ruleProblems(conditions, kinds).length) { skipped += 1; continue; }
      rules += 1;
      const key = [...kinds].sort().join('|');
      if (!factsByKinds.has(key)) factsByKinds.set(key, await factsOf(kinds));
      const facts = factsByKinds.get(key)!;
      const scope = { kinds, conditions, timeZone, ...WINDOW };
      for (const freeTextGuard of [false, true]) {
        const { rows } = await sql<{ id: number }>`select m.id from (${matchedRequestsSql(h.orm.em.fork(), scope, { freeTextGuard })}) m order by m.id`
          .execute(db());
        const expected = facts.filter((f) => evaluateRule(conditions, f.facts).matches && (!freeTextGuard || unreadFreeText(conditions, f.facts) === null))
          .map((f) => f.id).sort((a, b) => a - b);
        const got = rows.map((r) => r.id);
        if (JSON.stringify(got) !== JSON.stringify(expected)) {
          const only = (a: number[], b: number[]) => a.filter((x) => !b.includes(x));
          mismatches.push(`${JSON.stringify({ kinds, conditions, freeTextGuard })}: SQL only ${only(got, expected).join(',')}; evaluator only ${only(expected, got).join(',')}`);
        }
        if (!freeTextGuard && expected.length > 0 && expected.length < facts.length) someButNotAll += 1;
      }
    }
    console.log(`[instant simulator] seed ${SEED}: ${rules} rules (${skipped} random ones refused by ruleProblems), ${someButNotAll} matched some requests but not all`);
    expect(mismatches.slice(0, 5), `seed ${SEED}`).toEqual([]);
    expect(someButNotAll, 'random rules that say something').toBeGreaterThan(rules / 4);
  });

  it('counts what the rule would issue, by kind and month, with the daily cap per office day, as the evaluator does', async () => {
    for (let i = 0; i < 20; i += 1) {
      const kinds = [...new Set(random.some(CERTIFICATE_TYPES, 3))];
      const conditions = randomRule(random, kinds);
      if (ruleProblems(conditions, kinds).length) { i -= 1; continue; }
      const dailyCap = random.pick([undefined, 0, 1, 2]);
      const result = await simulateRule(h.orm.em.fork(), { kinds, conditions, ...(dailyCap === undefined ? {} : { dailyCap }) }, timeZone, WINDOW.to);
      const facts = (await factsOf(kinds)).filter((f) => f.submitDate.getTime() >= new Date(result.from).getTime());
      const matching = facts.filter((f) => evaluateRule(conditions, f.facts).matches && unreadFreeText(conditions, f.facts) === null)
        .sort((a, b) => a.submitDate.getTime() - b.submitDate.getTime() || a.id - b.id);
      const perDay = new Map<string, number>();
      const issued = matching.filter((f) => {
        const day = zonedDay(f.submitDate.getTime(), timeZone);
        perDay.set(day, (perDay.get(day) ?? 0) + 1);
        return dailyCap === undefined || perDay.get(day)! <= dailyCap;
      });
      const months = new Map<string, number>();
      for (const f of issued) {
        const key = `${f.kind}|${zonedDay(f.submitDate.getTime(), timeZone).slice(0, 7)}`;
        months.set(key, (months.get(key) ?? 0) + 1);
      }
      const context = `seed ${SEED}: ${JSON.stringify({ kinds, conditions, dailyCap })}`;
      expect(result.considered, context).toBe(facts.length);
      expect(result.wouldIssue, context).toBe(issued.length);
      expect(Object.fromEntries(result.byKindMonth.map((k) => [`${k.kind}|${k.month}`, k.count])), context).toEqual(Object.fromEntries(months));
    }
  });
});

// ---- the route on a known history -----------------------------------------------------------------------------------

describe('POST /api/v1/instant-rules/simulate', () => {
  const RULE: RuleGroup = { combinator: 'and', rules: [{ field: 'eventType', operator: '=', value: 'Camp' }, { field: 'eventPatientCare', operator: '=', value: 'No' }] };
  const camp = { eventType: 'Camp', eventPatientCare: 'No' };
  const now = Date.now();
  /** Ten in the morning (office time) `days` ago, plus `hours`: every request of a day on the same office day. */
  const ago = (days: number, hours = 0) => new Date(officeDayStart(zonedDay(now - days * DAY, timeZone), timeZone).getTime() + (10 + hours) * HOUR);
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    let n = 7_100_000;
    const event = async (name: string, fields: Values, status: string, submitted: Date, hoursToDecision: number | null) => {
      ids[name] = await insertRequest(fields, {
        kind: 'Event', status, submitDate: submitted, completedDate: hoursToDecision === null ? null : new Date(submitted.getTime() + hoursToDecision * HOUR), requestNumber: (n += 1),
      });
    };
    await event('approved', camp, STATUS.approved, ago(60), 10);
    await event('sameDay', camp, STATUS.approved, ago(60, 0.5), 20); // the same office day as 'approved', half an hour later
    await event('denied', camp, STATUS.denied, ago(40), 30);
    await event('pended', camp, STATUS.approved, ago(30), 50);
    await audit(ids.pended, ago(29), STATUS_CHANGE_ACTIVITY, 'Status changed from "Submitted" to "Pending Additional Information"', STATUS.pendingAdditionalInformation);
    await event('holderChanged', camp, STATUS.approved, ago(20), 70);
    await audit(ids.holderChanged, ago(19), FIELD_EDIT_ACTIVITY, fieldEditAuditText(['Event Start Date']));
    await event('notesEdited', camp, STATUS.approved, ago(10), 90);
    await audit(ids.notesEdited, ago(9), FIELD_EDIT_ACTIVITY, fieldEditAuditText(['Internal Notes']));
    await event('open', camp, STATUS.submitted, ago(2), null);
    await event('social', { ...camp, eventType: 'Social Event' }, STATUS.approved, ago(15), 5);
    await event('draft', camp, STATUS.draft, ago(5), null);
    await event('lastYear', camp, STATUS.approved, ago(400), 5);
    ids.clinician = await insertRequest({}, { kind: 'Clinician', status: STATUS.approved, submitDate: ago(12), completedDate: ago(11) });
  });

  const monthOf = (name: string, days: number, hours = 0) => ({ name, month: zonedDay(ago(days, hours).getTime(), timeZone).slice(0, 7) });

  it('says what the rule would have issued over the last 12 months: per kind and month, the median time saved, and what the office decided otherwise', async () => {
    const res = await call(h, admin, 'POST', '/api/v1/instant-rules/simulate', { kinds: ['Event'], conditions: RULE });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const body = res.body;
    expect(body.considered).toBe(8); // approved, sameDay, denied, pended, holderChanged, notesEdited, open, social
    expect(body.wouldIssue).toBe(7);
    const months = new Map<string, number>();
    for (const { month } of [monthOf('approved', 60), monthOf('sameDay', 60, 0.5), monthOf('denied', 40), monthOf('pended', 30), monthOf('holderChanged', 20),
      monthOf('notesEdited', 10), monthOf('open', 2)]) months.set(month, (months.get(month) ?? 0) + 1);
    expect(body.byKindMonth).toEqual([...months].sort(([a], [b]) => a.localeCompare(b)).map(([month, count]) => ({ kind: 'Event', month, count })));
    expect(body.medianSavedHours).toBe(40); // 10, 20, 30, 50, 70, 90: the open one has no decision
    expect(body.differedTotal).toBe(3);
    expect(body.differed.map((d: { requestId: number; differedBy: string }) => [d.requestId, d.differedBy])).toEqual([
      [ids.holderChanged, 'changed'], [ids.pended, 'pended'], [ids.denied, 'denied'],
    ]);
    expect(body.differed[0].detail).toBe(`Edited "Event Start Date" on ${formatOfficeDate(ago(19), timeZone)}`);
    expect(body.differed[1].detail).toBe(`Pended for more information on ${formatOfficeDate(ago(29), timeZone)}`);
    expect(body.differed[2]).toMatchObject({ requestNumber: expect.any(Number), certificateType: 'Event', status: STATUS.denied });
    expect(body.tookMs).toBeGreaterThanOrEqual(0);
    expect(new Date(body.to).getTime() - new Date(body.from).getTime()).toBeGreaterThan(364 * DAY);
  });

  it('lets the first of each office day issue up to the daily cap', async () => {
    const res = await call(h, admin, 'POST', '/api/v1/instant-rules/simulate', { kinds: ['Event'], conditions: RULE, dailyCap: 1 });
    expect(res.status).toBe(200);
    expect(res.body.wouldIssue).toBe(6); // 'sameDay' came second that day
    expect(res.body.medianSavedHours).toBe(50); // 10, 30, 50, 70, 90
  });

  it('refuses a rule that cannot be evaluated, in the editor\'s words, and is for administrators only', async () => {
    const bad = await call(h, admin, 'POST', '/api/v1/instant-rules/simulate', { kinds: ['Event'], conditions: { combinator: 'and', rules: [{ field: 'nope', operator: '=', value: 'x' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(INSTANT_MESSAGES.unknownField('nope'));
    expect(bad.body.errors.conditions).toBe(INSTANT_MESSAGES.unknownField('nope'));
    const wrongKind = await call(h, admin, 'POST', '/api/v1/instant-rules/simulate', { kinds: ['Event', 'Clinician'], conditions: RULE });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.message).toContain(INSTANT_MESSAGES.fieldNotInKinds('Event Type'));
    const noKind = await call(h, admin, 'POST', '/api/v1/instant-rules/simulate', { kinds: [], conditions: RULE });
    expect(noKind.status).toBe(400);
    expect(noKind.body.errors.kinds).toBe(INSTANT_MESSAGES.kindsRequired);
    const nullItem = await call(h, admin, 'POST', '/api/v1/instant-rules/simulate', { kinds: ['Event'], conditions: { combinator: 'and', rules: [null] } });
    expect(nullItem.status).toBe(400);
    expect((await call(h, null, 'POST', '/api/v1/instant-rules/simulate', { kinds: ['Event'], conditions: RULE })).status).toBe(401);
  });
});
