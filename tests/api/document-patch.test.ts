/** PATCH /api/v1/documents/:id: administrators rename and redescribe; a duplicate name is refused. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentSchema } from '../../db/entities';
import { MESSAGES } from '../../domain';
import { attachDocument, call, credentialingDraft, loginAdmin, loginRequester, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let owner: Session;
let admin: Session;

beforeAll(async () => {
  h = await startHarness({ worker: false });
  owner = await loginRequester(h);
  admin = await loginAdmin(h);
});
afterAll(async () => { await h?.stop(); });

describe('PATCH /api/v1/documents/:id', () => {
  it('renames and redescribes (admin); a duplicate name on the request is refused; requesters may not', async () => {
    const id = await credentialingDraft(h, owner);
    await attachDocument(h, owner, id, 'First.pdf');
    await attachDocument(h, owner, id, 'Second.pdf');
    const docs = await h.orm.em.fork().find(DocumentSchema, { requestId: id, name: { $in: ['First.pdf', 'Second.pdf'] } }, { orderBy: { id: 'asc' } });
    const [first] = docs;
    const patch = (session: Session, body: unknown) => call(h, session, 'PATCH', `/api/v1/documents/${first.id}`, body);

    expect((await patch(owner, { filename: 'Mine.pdf' })).status).toBe(403);
    const dup = await patch(admin, { filename: 'Second.pdf' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(MESSAGES.documentExists);
    expect((await patch(admin, { filename: '   ' })).status).toBe(400);
    const ok = await patch(admin, { filename: 'Renamed.pdf', description: 'Signed release', isAttachment: true });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ name: 'Renamed.pdf', description: 'Signed release', isAttachment: true });
    expect(ok.body).not.toHaveProperty('storedName');
  });
});
