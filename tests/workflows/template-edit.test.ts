/** An email template edited under Manage is the text of the next email the workflow sends. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmailTemplateSchema } from '../../db/entities';
import { EMAIL_TEMPLATE_TITLES } from '../../domain';
import { call, credentialingDraft, loginAdmin, loginRequester, type Session } from '../support/api-helpers';
import { startHarness, type Harness } from '../support/portal-harness';

let h: Harness;
let admin: Session;
let requester: Session;

beforeAll(async () => {
  h = await startHarness();
  admin = await loginAdmin(h);
  requester = await loginRequester(h);
});
afterAll(async () => { await h?.stop(); });

describe('an edited email template', () => {
  it('is used by the next email', async () => {
    const template = await h.orm.em.fork().findOneOrFail(EmailTemplateSchema, { title: EMAIL_TEMPLATE_TITLES.submissionConfirmation });
    const edited = await call(h, admin, 'PATCH', `/api/v1/email-templates/${template.id}`, {
      subject: 'Edited: we have request {{requestNumber}}', body: 'Edited body for {{clinicianName}}.',
    });
    expect(edited.status).toBe(200);
    try {
      const id = await credentialingDraft(h, requester, { lastName: 'Templeton', firstName: 'Ada' });
      const submitted = await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
      expect(submitted.status).toBe(200);
      const number = submitted.body.requestNumber;
      const mail = await h.sink.waitFor((m) => m.subject === `Edited: we have request ${number}`, 30_000);
      expect(mail.text).toContain('Edited body for Ada Templeton.');
    } finally {
      await call(h, admin, 'PATCH', `/api/v1/email-templates/${template.id}`, { subject: template.subject, body: template.body });
    }
  });
});
