#!/usr/bin/env node
/**
 * An organisation's system talking to the portal (docs/ORGANISATIONS.md): with an API key it files a clinician's
 * certificate request and submits it; its webhook receiver verifies each delivery's signature (Standard Webhooks) and
 * waits for "letter.issued"; it downloads the letter with the key and checks the letter's code on the portal's public
 * verification API. Prints one JSON line of what it did; exits 1 on any failure.
 *
 *   PORTAL_URL=https://coi.example.edu API_KEY=coi_… WEBHOOK_SECRET=whsec_… RECEIVER_PORT=8787 \
 *     node docs/examples/organisation-client.mjs
 *
 * The webhook endpoint (https://<this system>/hook → RECEIVER_PORT) is registered once by the account on the portal's
 * Webhooks page, which shows WEBHOOK_SECRET once. Node 20 or later (fetch); one package: `npm install standardwebhooks`.
 */
import http from 'node:http';
import { Webhook } from 'standardwebhooks';

const { PORTAL_URL, API_KEY, WEBHOOK_SECRET } = process.env;
const RECEIVER_PORT = Number(process.env.RECEIVER_PORT ?? 8787);
const WAIT_MS = Number(process.env.WAIT_MS ?? 120_000);
if (!PORTAL_URL || !API_KEY || !WEBHOOK_SECRET) throw new Error('Set PORTAL_URL, API_KEY and WEBHOOK_SECRET');

/** A call with the key; any answer but 2xx is an error carrying the portal's message. */
async function api(method, path, body) {
  const res = await fetch(new URL(path, PORTAL_URL), {
    method,
    headers: { authorization: `Bearer ${API_KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res;
}

// 1. The webhook receiver: a delivery whose signature does not verify is refused (400) and ignored.
const webhook = new Webhook(WEBHOOK_SECRET);
const letters = new Map(); // requestId → the letter.issued event
let letterArrived = () => {};
const receiver = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let event;
    try {
      event = webhook.verify(Buffer.concat(chunks).toString('utf8'), {
        'webhook-id': req.headers['webhook-id'], 'webhook-timestamp': req.headers['webhook-timestamp'], 'webhook-signature': req.headers['webhook-signature'],
      });
    } catch {
      res.writeHead(400).end();
      return;
    }
    res.writeHead(204).end();
    if (event.type === 'letter.issued') { letters.set(event.data.requestId, event); letterArrived(); }
  });
});
await new Promise((resolve) => receiver.listen(RECEIVER_PORT, resolve));

try {
  // 2. A clinician's certificate request, filed and submitted with the key (scope requests:write).
  const draft = await (await api('POST', '/api/v1/requests', {
    requestType: 'certificate', certificateType: 'Clinician',
    certificateHolder: 'Mercy Hospital', certificateHolderAddress: '1 Main St, Portland, OR 97201',
    lastName: 'Nguyen', firstName: 'Ava', facilityName: 'Mercy Hospital',
    dateFrom: '2025-01-01T11:00:00.000Z', dateTo: '2025-06-30T11:00:00.000Z',
  })).json();
  const submitted = await (await api('PATCH', `/api/v1/requests/${draft.id}`, { status: 'Submitted' })).json();

  // 3. The office (or its instant-certificate rule) issues the certificate: the webhook says so, signed.
  const deadline = Date.now() + WAIT_MS;
  while (!letters.has(draft.id)) {
    if (Date.now() > deadline) throw new Error(`no letter.issued webhook for request ${submitted.requestNumber} within ${WAIT_MS} ms`);
    await new Promise((resolve) => { letterArrived = resolve; setTimeout(resolve, 1000); });
  }
  const { letter } = letters.get(draft.id).data;

  // 4. The letter itself, downloaded with the key (scope letters:read).
  const pdf = Buffer.from(await (await api('GET', new URL(letter.downloadUrl).pathname)).arrayBuffer());
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Error('the download is not a PDF');

  // 5. Its code on the public verification API (no key needed): what a certificate holder would check.
  const code = decodeURIComponent(new URL(letter.verificationUrl).pathname.split('/').pop());
  const check = await (await fetch(new URL(`/api/v1/verify/${encodeURIComponent(code)}`, PORTAL_URL))).json();
  if (check.status !== 'Valid') throw new Error(`the verification page says ${check.status}`);

  console.log(JSON.stringify({ requestId: draft.id, requestNumber: submitted.requestNumber, status: submitted.status, letterBytes: pdf.length, code, verification: check.status }));
} finally {
  receiver.close();
}
