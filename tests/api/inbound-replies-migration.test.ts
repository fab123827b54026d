/**
 * The replies migration: documents that came by email stop passing for generated letters, and stored Message-IDs get
 * the lower-case domain (and the dedup key) the intake now makes, so a late redelivery still finds its row.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dropDatabase, ensureDatabase } from '../../db/database';
import { createOrm, type Orm } from '../../db/orm';
import { normalizedMessageId } from '../../domain';

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

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** The intake's dedup key of a message with this Message-ID (mail-in/intake.ts). */
const keyOf = (messageId: string, tooLarge = false) => (tooLarge ? sha256(`too-large:${sha256(`message-id:${messageId}`)}`) : sha256(`message-id:${messageId}`));

describe('Migration20261129200001_inbound_replies', () => {
  it('moves emailed attachments off the generated-letter key and gives stored Message-IDs a lower-case domain', async () => {
    await orm.migrator.up({ to: 'Migration20261129100001_state_in_columns' });
    const sql = orm.em.getConnection();
    const [user] = await sql.execute(`insert into users (created_at, updated_at, affiliation, email, first_name, last_name)
      values (now(), now(), 'external', 'pat@hospital.example', 'Pat', 'Requester') returning id`);
    const [request] = await sql.execute(
      `insert into requests (created_at, updated_at, request_number, request_type, status, source, requester_id, employer_type, verified, version)
       values (now(), now(), 50001, 'credentialing', 'Submitted', 'external', ?, 'external', false, 1) returning id`, [user.id]);
    const document = (name: string, key: string) => sql.execute(
      `insert into documents (created_at, updated_at, request_id, name, stored_name, mime_type, size, idempotency_key)
       values (now(), now(), ?, ?, ?, 'application/pdf', 10, ?)`, [request.id, name, `stored-${name}`, key]);
    await document('emailed.pdf', 'inbound:7:0');
    await document('letter.pdf', 'effect-50001-approved:letter');
    const message = (messageId: string, dedupKey: string, outcome: string | null = 'posted') => sql.execute(
      `insert into inbound_messages (dedup_key, message_id, source, envelope_to, size, state, outcome)
       values (?, ?, 'smtp', 'reply+x@coi-portal.local', 100, 'posted', ?)`, [dedupKey, messageId, outcome]);
    await message('Outlook.1@BYAPR01MB.prod.outlook.com', keyOf('Outlook.1@BYAPR01MB.prod.outlook.com'));
    await message('Big.2@Phone.Example', keyOf('Big.2@Phone.Example', true), 'too-large');
    await message('plain.3@phone.example', keyOf('plain.3@phone.example'));
    // Stored twice before (the defect): the older row keeps the message, the other is left as it was.
    await message('Twice.4@phone.example', keyOf('Twice.4@phone.example'));
    await message('Twice.4@PHONE.EXAMPLE', keyOf('Twice.4@PHONE.EXAMPLE'));
    // Without a Message-ID the bytes made the key: nothing to change.
    await message('Odd.5@Phone.Example', sha256('the bytes themselves'));

    await orm.migrator.up();

    const documents = await sql.execute<Array<{ name: string; idempotency_key: string | null; inbound_key: string | null }>>(
      'select name, idempotency_key, inbound_key from documents order by name');
    expect(documents).toEqual([
      { name: 'emailed.pdf', idempotency_key: null, inbound_key: 'inbound:7:0' },
      { name: 'letter.pdf', idempotency_key: 'effect-50001-approved:letter', inbound_key: null },
    ]);
    const rows = await sql.execute<Array<{ message_id: string; dedup_key: string }>>('select message_id, dedup_key from inbound_messages order by id');
    const normal = (id: string) => normalizedMessageId(id)!;
    expect(rows).toEqual([
      { message_id: normal('Outlook.1@BYAPR01MB.prod.outlook.com'), dedup_key: keyOf(normal('Outlook.1@BYAPR01MB.prod.outlook.com')) },
      { message_id: 'Big.2@phone.example', dedup_key: keyOf('Big.2@phone.example', true) },
      { message_id: 'plain.3@phone.example', dedup_key: keyOf('plain.3@phone.example') },
      { message_id: 'Twice.4@phone.example', dedup_key: keyOf('Twice.4@phone.example') },
      { message_id: 'Twice.4@PHONE.EXAMPLE', dedup_key: keyOf('Twice.4@PHONE.EXAMPLE') },
      { message_id: 'Odd.5@Phone.Example', dedup_key: sha256('the bytes themselves') },
    ]);
    expect(rows[0].message_id).toBe('Outlook.1@byapr01mb.prod.outlook.com');
  });
});
