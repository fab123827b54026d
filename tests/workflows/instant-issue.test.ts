/**
 * On real parts: a certificate request a rule of the office covers is approved by the request workflow itself, as
 * "Rule: <name> v<version>", with everything an approval does (letter, email, audit row); every guard sends it to a
 * person instead, and its decision names what stopped it.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RequestActivitySchema, RequestSchema } from '../../db/entities';
import { kysely } from '../../db/kysely';
import { instantHoldAfterRevocation, INSTANT_MESSAGES, STATUS, uncoveredCertificateMessage, type RuleGroup } from '../../domain';
import { call, certificateDraft, loginAdmin, loginEmployee, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let employee: Session;
let admin: Session;

/** Events without patient care, asked by a member of the university. */
const NO_PATIENT_CARE: RuleGroup = {
  combinator: 'and',
  rules: [
    { field: 'eventPatientCare', operator: '=', value: 'No' },
    { field: 'requesterType', operator: '=', value: 'internal' },
    { field: 'periodDays', operator: '<=', value: 3 },
  ],
};
const STANDARD_EVENT = { eventPatientCare: 'No', eventPatientCareDetail: '' };

beforeAll(async () => {
  h = await startHarness();
  employee = await loginEmployee(h);
  admin = await loginAdmin(h);
});
afterAll(async () => { await h?.stop(); });

const db = () => kysely(h.orm.em.fork());

beforeEach(async () => {
  await db().deleteFrom('instant_rules').execute();
  await call(h, admin, 'PUT', '/api/v1/instant-settings', { enabled: true });
});

async function writeRule(body: Record<string, unknown> = {}, enabled = true) {
  const created = await call(h, admin, 'POST', '/api/v1/instant-rules', { name: 'Standard events', kinds: ['Event'], conditions: NO_PATIENT_CARE, ...body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body).toMatchObject({ enabled: false, version: 1 });
  if (enabled) expect((await call(h, admin, 'PUT', `/api/v1/instant-rules/${created.body.id}/enabled`, { enabled: true })).status).toBe(200);
  return created.body as { id: number; version: number };
}

async function submit(form: Record<string, unknown>, subtype = 'Event') {
  const id = await certificateDraft(h, employee, subtype, form);
  const sub = await call(h, employee, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
  expect(sub.status, JSON.stringify(sub.body)).toBe(200);
  return { id, number: sub.body.requestNumber as number };
}

/** The request's decision once the workflow has made it. */
async function decisionOf(id: number) {
  return eventually(async () => {
    const answer = await call(h, admin, 'GET', `/api/v1/requests/${id}/instant-decision`);
    expect(answer.status).toBe(200);
    return answer.body.decision as { outcome: string; stoppedBy: string | null; ruleName: string | null; ruleVersion: number | null; checkRequired: boolean; id: number } | null;
  });
}

const statusOf = async (id: number) => (await h.orm.em.fork().findOneOrFail(RequestSchema, id)).status;

describe('a request the rule covers issues itself', () => {
  it('is approved by "Rule: <name> v<version>" and its certificate is emailed, verified and audited', async () => {
    const rule = await writeRule();
    const { id, number } = await submit(STANDARD_EVENT);
    const mail = await h.sink.waitFor((m) => m.subject === `Request ${number} approved: certificate of insurance`, 60_000);
    expect(mail.attachments.map((a) => a.filename)).toEqual([`Certificate of Insurance ${number}.pdf`]);
    const request = await h.orm.em.fork().findOneOrFail(RequestSchema, id);
    expect(request).toMatchObject({ status: STATUS.approved, verified: true });
    const audit = await h.orm.em.fork().find(RequestActivitySchema, { requestId: id, activityText: { $like: '%to "Approved"%' } });
    expect(audit.map((a) => a.performedBy)).toEqual(['Rule: Standard events v1']);
    expect(await decisionOf(id)).toMatchObject({ outcome: 'issued', ruleName: 'Standard events', ruleVersion: 1, stoppedBy: null });
    const rules = await call(h, admin, 'GET', '/api/v1/instant-rules');
    expect(rules.body.data.find((r: { id: number }) => r.id === rule.id)).toMatchObject({ issuedToday: 1, issuedTotal: 1 });
  });

  it('a later version applies to later requests only; the decision names the version it applied', async () => {
    const rule = await writeRule();
    const first = await submit(STANDARD_EVENT);
    await eventually(async () => (await statusOf(first.id)) === STATUS.approved);
    const changed = await call(h, admin, 'PUT', `/api/v1/instant-rules/${rule.id}`, {
      name: 'Standard events', kinds: ['Event'], version: 1,
      conditions: { combinator: 'and', rules: [...NO_PATIENT_CARE.rules, { field: 'eventType', operator: 'in', value: ['Community Service'] }] },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ version: 2, enabled: true });
    const stale = await call(h, admin, 'PUT', `/api/v1/instant-rules/${rule.id}`, { name: 'x', kinds: ['Event'], version: 1, conditions: NO_PATIENT_CARE });
    expect(stale.status).toBe(409);
    const second = await submit(STANDARD_EVENT);
    expect(await decisionOf(second.id)).toMatchObject({ outcome: 'issued', ruleVersion: 2 });
    expect(await decisionOf(first.id)).toMatchObject({ outcome: 'issued', ruleVersion: 1 });
    const versions = await call(h, admin, 'GET', `/api/v1/instant-rules/${rule.id}/versions`);
    expect(versions.body.data.map((v: { version: number }) => v.version)).toEqual([2, 1]);
  });
});

describe('everything else waits for a person, and its page says why', () => {
  it('a condition that does not hold is named', async () => {
    await writeRule();
    const { id } = await submit({}); // patient care: Yes
    expect(await decisionOf(id)).toMatchObject({ outcome: 'stopped', stoppedBy: 'Rule: Standard events v1: needs "Will patient care be provided at the event?" is No' });
    expect(await statusOf(id)).toBe(STATUS.submitted);
  });

  it('a rule switched off, or the office switched off, issues nothing', async () => {
    const rule = await writeRule();
    await call(h, admin, 'PUT', `/api/v1/instant-rules/${rule.id}/enabled`, { enabled: false });
    const off = await submit(STANDARD_EVENT);
    expect(await decisionOf(off.id)).toMatchObject({ outcome: 'stopped', stoppedBy: 'No enabled rule covers this certificate type' });
    await call(h, admin, 'PUT', `/api/v1/instant-rules/${rule.id}/enabled`, { enabled: true });
    await call(h, admin, 'PUT', '/api/v1/instant-settings', { enabled: false });
    const officeOff = await submit(STANDARD_EVENT);
    // The submit's effects are carried out (its confirmation) after the decision: once it is sent, nothing was decided.
    await h.sink.waitFor((m) => m.subject.includes(String(officeOff.number)), 60_000);
    expect((await call(h, admin, 'GET', `/api/v1/requests/${officeOff.id}/instant-decision`)).body.decision).toBeNull();
    expect(await statusOf(officeOff.id)).toBe(STATUS.submitted);
  });

  it('dates no policy year covers, free text the rule does not name, a requester on hold, a daily cap reached', async () => {
    await writeRule({ dailyCap: 1 });
    const uncovered = await submit({ ...STANDARD_EVENT, eventStartDate: '2090-04-18T11:00:00.000Z', eventEndDate: '2090-04-19T11:00:00.000Z' });
    expect((await decisionOf(uncovered.id))!.stoppedBy).toBe(`Rule: Standard events v1: ${uncoveredCertificateMessage('2090-04-18', '2090-04-19')}`);

    const held = await call(h, admin, 'PUT', `/api/v1/users/${employee.user.id}/instant-hold`, { hold: true, reason: 'checking their events' });
    expect(held.body).toMatchObject({ onHold: true, reason: 'checking their events' });
    const onHold = await submit(STANDARD_EVENT);
    expect((await decisionOf(onHold.id))!.stoppedBy).toBe('The requester is on hold for instant certificates (checking their events)');
    await call(h, admin, 'PUT', `/api/v1/users/${employee.user.id}/instant-hold`, { hold: false });

    const issued = await submit(STANDARD_EVENT);
    expect(await decisionOf(issued.id)).toMatchObject({ outcome: 'issued' });
    const capped = await submit(STANDARD_EVENT);
    expect((await decisionOf(capped.id))!.stoppedBy).toBe('Rule: Standard events v1: its daily cap of 1 is reached');
    for (const r of [uncovered, onHold, capped]) expect(await statusOf(r.id)).toBe(STATUS.submitted);
  });

  it('an "Other" answer the rule does not name stops it', async () => {
    await writeRule({ name: 'Fleet vans', kinds: ['Auto Liability'], conditions: { combinator: 'and', rules: [{ field: 'autoType', operator: '=', value: 'New/Leased Fleet Vehicle' }] } });
    const { id } = await submit({}, 'Fleet'); // its location is "Off-Campus Location/Other: Hillsboro lot"
    expect((await decisionOf(id))!.stoppedBy).toBe('Rule: Fleet vans v1: "Other Vehicle Location" has free text the rule does not cover');
  });

  it('a rule that can no longer be evaluated is switched off with its problem; the request waits', async () => {
    const rule = await writeRule();
    // as if a field were renamed after the rule was written
    await sql`update instant_rules set conditions = ${JSON.stringify({ combinator: 'and', rules: [{ field: 'eventPatientCareOld', operator: '=', value: 'No' }] })}::jsonb where id = ${rule.id}`.execute(db());
    const { id } = await submit(STANDARD_EVENT);
    expect((await decisionOf(id))!.stoppedBy).toContain('switched off, it could not be evaluated');
    const listed = await call(h, admin, 'GET', `/api/v1/instant-rules/${rule.id}`);
    expect(listed.body).toMatchObject({ enabled: false, problem: INSTANT_MESSAGES.unknownField('eventPatientCareOld') });
    expect(await statusOf(id)).toBe(STATUS.submitted);
  });
});

describe('a certificate a rule issued and an administrator revoked', () => {
  it('leaves the check list and puts its requester on hold: their next request waits for a person', async () => {
    await writeRule({ checkEvery: 1 });
    const { id, number } = await submit(STANDARD_EVENT);
    await h.sink.waitFor((m) => m.subject === `Request ${number} approved: certificate of insurance`, 60_000);
    const [item] = (await call(h, admin, 'GET', `/api/v1/requests/${id}/certificates`)).body.items as Array<{ code: string }>;
    const revoked = await call(h, admin, 'POST', `/api/v1/requests/${id}/certificates/${item.code}/revoke`, { reason: 'Issued in error', note: 'Wrong holder' });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    const checks = await call(h, admin, 'GET', '/api/v1/instant-checks');
    expect(checks.body.data.map((r: { requestId: number }) => r.requestId)).not.toContain(id);
    const next = await submit(STANDARD_EVENT);
    expect((await decisionOf(next.id))!.stoppedBy).toBe(`The requester is on hold for instant certificates (${instantHoldAfterRevocation(number)})`);
    const held = await call(h, admin, 'GET', '/api/v1/instant-holds');
    expect(held.body.data).toEqual([expect.objectContaining({ userId: employee.user.id, reason: instantHoldAfterRevocation(number) })]);
    await call(h, admin, 'PUT', `/api/v1/users/${employee.user.id}/instant-hold`, { hold: false });
  });
});

describe('rules as the office writes them', () => {
  it('a rule that cannot be evaluated is refused with the reason; requesters cannot read rules', async () => {
    const bad = await call(h, admin, 'POST', '/api/v1/instant-rules', {
      name: 'Bad', kinds: ['Event', 'Property'], conditions: { combinator: 'and', rules: [{ field: 'eventType', operator: '<', value: 'x' }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('"Event Type" is not a field of every certificate type this rule covers');
    expect(bad.body.message).toContain('"<" cannot be used with "Event Type"');
    expect((await call(h, employee, 'GET', '/api/v1/instant-rules')).status).toBe(403);
    // Groups nested past what an office writes (and past what a stack holds) are refused, not a crash.
    const depth = 20_000;
    const deep = `${'{"combinator":"and","rules":['.repeat(depth)}{"field":"eventType","operator":"=","value":"Picnic"}${']}'.repeat(depth)}`;
    for (const url of ['/api/v1/instant-rules', '/api/v1/instant-rules/simulate']) {
      const nested = await h.app.inject({
        method: 'POST', url, headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        payload: `{"name":"Deep","kinds":["Event"],"conditions":${deep}}`,
      });
      expect(nested.statusCode, url).toBe(400);
      expect(nested.json().message, url).toBe(INSTANT_MESSAGES.tooMany);
    }
    const empty = await call(h, admin, 'POST', '/api/v1/instant-rules', { name: ' ', kinds: ['Event'], conditions: NO_PATIENT_CARE });
    expect(empty.body.message).toBe(INSTANT_MESSAGES.nameRequired);
  });

  it('one in N issued lands on Check after issue; confirming clears it; every change is in the security log', async () => {
    await writeRule({ checkEvery: 2 });
    const first = await submit(STANDARD_EVENT);
    const second = await submit(STANDARD_EVENT);
    expect(await decisionOf(first.id)).toMatchObject({ outcome: 'issued', checkRequired: false });
    const checked = await decisionOf(second.id);
    expect(checked).toMatchObject({ outcome: 'issued', checkRequired: true });
    const list = await call(h, admin, 'GET', '/api/v1/instant-checks');
    expect(list.body.data.map((r: { requestId: number }) => r.requestId)).toContain(second.id);
    expect((await call(h, admin, 'POST', `/api/v1/instant-checks/${checked!.id}/confirm`)).status).toBe(200);
    const after = await call(h, admin, 'GET', '/api/v1/instant-checks');
    expect(after.body.data.map((r: { requestId: number }) => r.requestId)).not.toContain(second.id);
    const log = await sql<{ kind: string }>`select kind from security_events where kind like 'instant%'`.execute(db());
    expect(log.rows.map((r) => r.kind)).toEqual(expect.arrayContaining(['instantRuleCreated', 'instantRuleEnabled', 'instantSwitchedOn']));
  });
});
