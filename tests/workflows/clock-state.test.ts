/**
 * The clocks start from columns, never from the audit text: the activities that write a status change, a clock's row
 * and a signed release keep the clocks' state of the stay (`request_clocks`) and the audit row's own columns (the
 * change, the clock that made it, the user) in the same statement; rewriting every audit text of the request changes
 * nothing the clocks read. Runs the activities themselves on the test database (no workflow needed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordStatusActivity } from '../../activities/effects/record-status';
import { recordClockEffectActivity, recordSignedReleaseActivity, runStartActivity } from '../../activities/effects/request-clocks';
import { RequestActivitySchema } from '../../db/entities';
import { AUTOMATED_EMAIL_ACTOR, CLOCK_TEMPLATE_TITLES, STATUS, type RequestStatus } from '../../domain';
import type { RecordStatusInput } from '../../workflows/request-activities.types';
import { credentialingDraft, loginAdmin, loginRequester, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let requester: Session;
let admin: Session;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  [requester, admin] = await Promise.all([loginRequester(h), loginAdmin(h)]);
}, 120_000);
afterAll(async () => { await h?.stop(); });

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => h.orm.em.fork().getConnection().execute<T[]>(text, params, 'all');
/** The rows these activities wrote (not the draft's own). */
const audit = (id: number) => h.orm.em.fork().find(RequestActivitySchema, { requestId: id, idempotencyKey: { $ne: null } }, { orderBy: { id: 'asc' } });
const at = (minutes: number) => new Date(Date.UTC(2026, 10, 2, 15, minutes)).toISOString();

describe('the clocks\' state in columns', () => {
  it('is written with the audit rows and read back unchanged when every audit text of the request is rewritten', async () => {
    const deps = { orm: h.orm, config: h.config };
    const recordStatus = recordStatusActivity(deps);
    const recordClockEffect = recordClockEffectActivity(deps);
    const recordSignedRelease = recordSignedReleaseActivity(deps);
    // the clocks' start as the run reads it at its start
    const clockStart = async ({ requestId }: { requestId: number }) => (await runStartActivity(deps)({ requestId, owed: false, clock: true })).clockStart;
    const id = await credentialingDraft(h, requester);
    const adminActor = { name: 'Dev Administrator', email: admin.user.email, userId: admin.user.id };
    const change = (seq: number, previousStatus: RequestStatus, status: RequestStatus, extra: Partial<RecordStatusInput> = {}) => recordStatus({
      key: `clock-state-${id}:${seq}`, requestId: id, previousStatus, status, at: at(seq), submitted: status === STATUS.submitted,
      completedDate: null, actor: adminActor, commandId: null, effect: null, ...extra,
    });

    expect(await clockStart({ requestId: id })).toMatchObject({ statusSince: null, remindersSent: 0, escalated: false, releaseExpiryHandled: false });
    await change(1, STATUS.draft, STATUS.submitted);
    await recordClockEffect({
      key: `clock-state-${id}:2`, requestId: id, at: at(2), activityType: 'Escalation', activityText: 'Escalated', templateTitle: CLOCK_TEMPLATE_TITLES.escalation, clock: 'escalation',
    });
    expect(await clockStart({ requestId: id })).toMatchObject({ statusSince: at(1), remindersSent: 0, escalated: true });
    await recordSignedRelease({ key: `clock-state-${id}:3`, requestId: id, signedReleaseDate: '2026-10-01', at: at(3), actor: adminActor });
    await change(4, STATUS.submitted, STATUS.pendingAdditionalInformation, { clock: 'release-expiry', reason: 'signed release expired', actor: { name: AUTOMATED_EMAIL_ACTOR, email: '' } });
    await recordClockEffect({
      key: `clock-state-${id}:5`, requestId: id, at: at(5), activityType: 'Reminder', activityText: 'Reminder 1 sent', templateTitle: CLOCK_TEMPLATE_TITLES.reminder, clock: 'reminder-1',
    });
    // A retried activity (same key) changes nothing.
    await recordClockEffect({
      key: `clock-state-${id}:5`, requestId: id, at: at(5), activityType: 'Reminder', activityText: 'Reminder 1 sent', templateTitle: CLOCK_TEMPLATE_TITLES.reminder, clock: 'reminder-1',
    });
    await recordClockEffect({
      key: `clock-state-${id}:6`, requestId: id, at: at(6), activityType: 'Reminder', activityText: 'Reminder 2 sent', templateTitle: CLOCK_TEMPLATE_TITLES.reminder, clock: 'reminder-2',
    });

    const expected = {
      statusSince: at(4), remindersSent: 2, escalated: false, signedReleaseDate: '2026-10-01', signedReleaseRecordedAt: at(3), releaseExpiryHandled: true,
    };
    expect(await clockStart({ requestId: id })).toMatchObject(expected);
    const rows = await audit(id);
    expect(rows.map((r) => [r.activityType, r.statusFrom, r.statusTo, r.clock])).toEqual([
      ['Submission', STATUS.draft, STATUS.submitted, null],
      ['Escalation', null, null, 'escalation'],
      ['Signed Release', null, null, null],
      ['Status Change', STATUS.submitted, STATUS.pendingAdditionalInformation, 'release-expiry'],
      ['Reminder', null, null, 'reminder-1'],
      ['Reminder', null, null, 'reminder-2'],
    ]);
    expect(rows.map((r) => r.performedByUserId)).toEqual([admin.user.id, null, admin.user.id, null, null, null]);

    // Nothing the clocks read is in the text: rewrite all of it (and the types), the state read back is the same.
    await sql(`update request_activity set activity_text = 'rewritten by hand', activity_type = 'Note' where request_id = ?`, [id]);
    expect(await clockStart({ requestId: id })).toMatchObject(expected);
    expect((await runStartActivity(deps)({ requestId: id, owed: true, clock: true })).clockStart).toMatchObject(expected);

    // A new stay starts its reminders and escalation afresh; the release expiry stays acted on until a new release.
    await change(7, STATUS.pendingAdditionalInformation, STATUS.submitted);
    expect(await clockStart({ requestId: id })).toMatchObject({ statusSince: at(7), remindersSent: 0, escalated: false, releaseExpiryHandled: true });
    await recordSignedRelease({ key: `clock-state-${id}:8`, requestId: id, signedReleaseDate: '2026-11-01', at: at(8), actor: adminActor });
    expect(await clockStart({ requestId: id })).toMatchObject({ signedReleaseDate: '2026-11-01', releaseExpiryHandled: false });
  });

  it('keeps the name of a user who is gone on the rows they made, without the user', async () => {
    const id = await credentialingDraft(h, requester);
    const [user] = await sql<{ id: number }>(`insert into users (created_at, updated_at, affiliation, email, first_name, last_name)
      values (now(), now(), 'External', ?, 'Gone', 'Administrator') returning id`, [`gone-${id}@example.org`]);
    await recordStatusActivity({ orm: h.orm, config: h.config })({
      key: `gone-user-${id}:1`, requestId: id, previousStatus: STATUS.draft, status: STATUS.submitted, at: at(1), submitted: true,
      completedDate: null, actor: { name: 'Gone Administrator', email: `gone-${id}@example.org`, userId: user.id }, commandId: null, effect: null,
    });
    expect((await audit(id)).map((r) => [r.performedBy, r.performedByUserId])).toEqual([['Gone Administrator', user.id]]);
    await sql(`delete from users where id = ?`, [user.id]);
    expect((await audit(id)).map((r) => [r.performedBy, r.performedByUserId])).toEqual([['Gone Administrator', null]]);
  });
});
