/**
 * The failed-email link as a column: the audit rows written before it (told apart by the end of their key) get the
 * outcome they record, the email problems list finds a failed email's Send again by it, and a row linked to an effect
 * that says nothing of it is refused.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dropDatabase, ensureDatabase } from '../../db/database';
import { createOrm, type Orm } from '../../db/orm';
import { emailProblemsPage } from '../../services/desk/email-problems';

let databaseUrl: string;
let orm: Orm;

beforeAll(async () => {
  const url = new URL(inject('databaseUrl'));
  url.pathname = `/coi_test_${process.pid}_migration_${randomBytes(3).toString('hex')}`;
  databaseUrl = url.toString();
  await ensureDatabase(databaseUrl);
  orm = await createOrm(databaseUrl);
});
afterAll(async () => {
  await orm?.close();
  await dropDatabase(databaseUrl);
});

describe('Migration20261201100001_failed_email_link', () => {
  it('gives the rows written before it their outcome, joins a failed email to its own row, refuses a link without one', async () => {
    await orm.migrator.up({ to: 'Migration20261130100001_shared_code_people_once' });
    const sql = orm.em.getConnection();
    const [user] = await sql.execute(`insert into users (created_at, updated_at, affiliation, email, first_name, last_name)
      values (now(), now(), 'external', 'pat@hospital.example', 'Pat', 'Requester') returning id`);
    const [request] = await sql.execute(
      `insert into requests (created_at, updated_at, request_number, request_type, status, source, requester_id, employer_type, verified, version)
       values (now(), now(), 50001, 'credentialing', 'Submitted', 'external', ?, 'external', false, 1) returning id`, [user.id]);
    const effect = async (key: string, state: string) => (await sql.execute(
      `insert into request_effects (created_at, updated_at, idempotency_key, request_id, kind, template_title, snapshot, state, failed_at, failure)
       values (now(), now(), ?, ?, 'email', 'Submission Confirmation', '{"recipients": ["pat@hospital.example"]}', ?,
         case when ? = 'failed' then now() end, case when ? = 'failed' then 'connection refused' end) returning id`,
      [key, request.id, state, state, state]))[0].id as number;
    const row = async (type: string, key: string, effectId: number | null) => (await sql.execute(
      `insert into request_activity (created_at, updated_at, request_id, date, activity_type, activity_text, performed_by, idempotency_key, effect_id)
       values (now(), now(), ?, now(), ?, 'as the worker wrote it', 'COI Automated Email System', ?, ?) returning id`,
      [request.id, type, key, effectId]))[0].id as number;
    // Rows as the worker wrote them before the column (the kinds as the audit tab shows them): a failed email, and an
    // email that went out but whose extra recipient the mail server refused (sent: no problem).
    const failed = await effect('request-50001:run-a:4', 'failed');
    const partly = await effect('request-50001:run-a:2', 'sent');
    const failedRow = await row('Email Failed', 'request-50001:run-a:4:failed', failed);
    const refusedRow = await row('Email Failed', 'request-50001:run-a:2:refused', partly);
    const sentRow = await row('Email', 'request-50001:run-a:2:email', null);
    const letterRow = await row('Document', 'request-50001:run-a:6:failed', null);

    await orm.migrator.up();

    const outcomes = await sql.execute<Array<{ id: number; effect_outcome: string | null }>>(
      'select id, effect_outcome from request_activity where request_id = ? order by id', [request.id]);
    expect(outcomes).toEqual([
      { id: failedRow, effect_outcome: 'failed' }, { id: refusedRow, effect_outcome: 'refused' },
      { id: sentRow, effect_outcome: null }, { id: letterRow, effect_outcome: null },
    ]);

    const page = await emailProblemsPage(orm.em.fork(), {});
    expect(page.data.map((p) => ({ effectId: p.effectId, state: p.state, retryOf: p.retryOf }))).toEqual([{ effectId: failed, state: 'failed', retryOf: failedRow }]);
    expect(page.total).toBe(1);

    await expect(row('Email Failed', 'request-50001:run-b:4:failed', failed)).rejects.toThrow(/request_activity_effect_outcome_check/);
    await expect(sql.execute(`insert into request_activity (created_at, updated_at, request_id, date, activity_type, activity_text, performed_by, effect_outcome)
      values (now(), now(), ?, now(), ?, 'no effect named', 'x', 'failed')`, [request.id, 'Email Failed'])).rejects.toThrow(/request_activity_effect_outcome_check/);
  });
});
