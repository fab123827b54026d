/**
 * Webhooks in Chromium: an external requester registers an endpoint (a local receiver), reads its secret once, sees
 * a delivery of its request's message listed as delivered with its attempt, and sends it again; the endpoint's
 * secret is rotated and it is removed. Keyboard, axe at 1280 and 768 px, no sideways scrolling.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_REQUESTER } from '../../db/seed-data';
import { call, credentialingDraft, loginRequester } from '../support/api-helpers';
import { eventually } from '../support/eventually';
import { usePortalBrowser } from '../support/portal-browser';

const received: string[] = [];
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => { body += c.toString('utf8'); });
  req.on('end', () => { received.push(body); res.end('ok'); });
});
let receiverUrl = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => { await new Promise((resolve) => receiver.close(resolve)); });

const portal = usePortalBrowser('webhooks', {
  env: () => ({ WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOW_PRIVATE_TARGETS: '1', WEBHOOK_RETRY_INITIAL_MS: '200', WEBHOOK_RETRY_MAX_MS: '400' }),
});

describe('Webhooks page', () => {
  it('registers an endpoint, shows its secret once, lists a delivery and sends it again; rotates and removes', async () => {
    const page = await portal.openAs(DEV_REQUESTER, '/webhooks');
    await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
    await page.getByRole('textbox', { name: 'URL' }).fill(receiverUrl);
    await page.getByRole('checkbox', { name: 'Status changed' }).uncheck();
    await page.getByRole('button', { name: 'Add endpoint' }).focus();
    await page.keyboard.press('Enter');
    const secret = await page.locator('code.secret').textContent();
    expect(secret).toMatch(/^whsec_/);
    const row = page.getByRole('row').filter({ hasText: receiverUrl });
    await row.waitFor();
    await row.getByRole('cell', { name: 'Certificate or letter issued, New discussion message' }).waitFor();
    await portal.checkA11y('webhooks 1280');
    await portal.shot('registered');

    // A message on one of the requester's requests is delivered to the receiver, and listed.
    const h = portal.h;
    const requester = await loginRequester(h);
    const id = await credentialingDraft(h, requester, { lastName: 'Hooked' });
    await call(h, requester, 'PATCH', `/api/v1/requests/${id}`, { status: 'Submitted' });
    const before = received.length;
    await call(h, requester, 'POST', '/api/v1/discussions', { requestId: id, topic: 'Hook', message: 'Hello' });
    await eventually(async () => received.length > before);
    await row.getByRole('button', { name: `Deliveries to ${receiverUrl}` }).click();
    const deliveries = page.getByRole('region', { name: `Deliveries to ${receiverUrl}` });
    await deliveries.waitFor();
    await eventually(async () => {
      await deliveries.getByRole('button', { name: 'Refresh' }).click();
      return (await deliveries.getByRole('cell', { name: 'delivered', exact: true }).count()) > 0;
    });
    await deliveries.getByRole('button', { name: /^Send again: delivery \d+$/ }).first().click();
    await deliveries.getByText(/queued to be sent again/).waitFor();
    await eventually(async () => received.length > before + 1);

    await page.setViewportSize({ width: 768, height: 1024 });
    await portal.checkA11y('webhooks 768');
    await portal.shot('narrow');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    await row.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click();
    await page.getByText(/The previous one stays valid until/).waitFor();
    expect(await page.locator('code.secret').textContent()).not.toBe(secret);
    await row.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await row.waitFor({ state: 'detached' });
  }, 180_000);
});
