/**
 * An administrator's own request is theirs as any requester's is (spec 1 §6: "Everyone may delete their own draft";
 * administrators file requests too). Sent back to Pending Additional Information, it is edited on the requester's
 * form (autosaves of a form being filled in, no Admin Edit audit rows) and submitted again, which the administrators'
 * mailbox hears of as for any resubmission. Someone else's request stays an audited Admin Edit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestActivitySchema, RequestSchema } from '../../db/entities';
import { FIELD_EDIT_ACTIVITY, STATUS } from '../../domain';
import { call, certificateDraft, CERTIFICATE_PAYLOADS, loginAdmin, loginEmployee, type Session } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let admin: Session;
let employee: Session;

beforeAll(async () => {
  h = await startHarness();
  [admin, employee] = await Promise.all([loginAdmin(h), loginEmployee(h)]);
});
afterAll(async () => { await h?.stop(); });

const stored = (id: number) => h.orm.em.fork().findOneOrFail(RequestSchema, id);
const fieldEdits = (id: number) => h.orm.em.fork().count(RequestActivitySchema, { requestId: id, activityType: FIELD_EDIT_ACTIVITY });

/** A Clinician certificate filed by `session`, submitted, then sent back for more information by the administrator. */
async function sentBack(session: Session): Promise<{ id: number; number: number }> {
  const id = await certificateDraft(h, session, 'Clinician');
  const submitted = await call(h, session, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.submitted });
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
  const back = await call(h, admin, 'PATCH', `/api/v1/requests/${id}`, { status: STATUS.pendingAdditionalInformation, version: (await stored(id)).version });
  expect(back.status, JSON.stringify(back.body)).toBe(200);
  return { id, number: submitted.body.requestNumber as number };
}

describe("an administrator's own request sent back for more information", () => {
  it('is filled in again on the requester\'s form and resubmitted: Submitted, and the administrators hear of it', async () => {
    const own = await sentBack(admin);
    // An autosave while the certificate holder is being retyped: the form is incomplete for a moment, as any requester's is.
    const typing = await call(h, admin, 'PATCH', `/api/v1/requests/${own.id}`, { certificateHolder: '' });
    expect(typing.status, JSON.stringify(typing.body)).toBe(200);
    expect(await fieldEdits(own.id)).toBe(0); // the requester's own edit, not an audited Admin Edit

    // Submit, as the form sends it: the values with the status.
    const again = await call(h, admin, 'PATCH', `/api/v1/requests/${own.id}`, {
      ...CERTIFICATE_PAYLOADS.Clinician, facilityName: 'Providence Hospital', status: STATUS.submitted,
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ status: STATUS.submitted, facilityName: 'Providence Hospital' });
    const mail = await h.sink.waitFor((m) => m.subject === `Request ${own.number} resubmitted`, 30_000);
    expect(mail.to).toEqual([h.config.riskManagementEmail]);
    // and the administrator, its requester here, has the confirmation the success modal promises
    const confirmations = () => h.sink.messages().filter((m) => m.subject.startsWith(`Request ${own.number} received:`));
    await eventually(async () => (confirmations().length === 2 ? true : undefined), 30_000); // the first submit's and this one's
    expect(confirmations()[1].to).toEqual([admin.user.email]);
    expect(await fieldEdits(own.id)).toBe(0);
  });

  it('is checked as any submit: an incomplete form is refused with the field\'s message and stays waiting', async () => {
    const own = await sentBack(admin);
    const refused = await call(h, admin, 'PATCH', `/api/v1/requests/${own.id}`, { certificateHolder: '', status: STATUS.submitted });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toMatchObject({ certificateHolder: 'The field above is required' });
    expect((await stored(own.id)).status).toBe(STATUS.pendingAdditionalInformation);
  });

  it("someone else's request waiting for more information stays an audited Admin Edit, refused while incomplete", async () => {
    const others = await sentBack(employee);
    const incomplete = await call(h, admin, 'PATCH', `/api/v1/requests/${others.id}`, { certificateHolder: '' });
    expect(incomplete.status).toBe(400);
    const edited = await call(h, admin, 'PATCH', `/api/v1/requests/${others.id}`, { facilityName: 'Legacy Hospital' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(await fieldEdits(others.id)).toBe(1);
  });
});
