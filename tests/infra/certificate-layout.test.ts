/**
 * The certificate and the letter of intent as Chromium lays them out for print: every section, the Coverage table
 * included, stays inside the frame the other sections draw (the page's printable width), and no cell's text runs
 * past its cell, even with the longest policy numbers and limits an office may enter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { certificateHtml, letterOfIntentHtml, type CertificateData } from '../../activities/pdf/certificate.html';
import { LETTER_CHROMIUM_PATH } from '../../config/app-config';

/** US Letter less the 0.9 in side margins the renderer prints with (activities/pdf/chromium-pdf-renderer.ts), in CSS px. */
const PRINTABLE_WIDTH = Math.round((8.5 - 2 * 0.9) * 96);

const year = (start: number, policyNumber: string, limitClaim: string, annualAggregate: string) => ({
  startDate: `${start}-07-01T11:00:00.000Z`, endDate: `${start + 1}-06-30T11:00:00.000Z`, policyNumber, limitClaim, annualAggregate,
});

const certificate = (policyYears: CertificateData['policyYears']): CertificateData => ({
  requestNumber: 50123, issuedOn: '2026-11-27', timeZone: 'America/Los_Angeles', certificateType: 'Contracts/Lease',
  subtypeLabel: 'Contracts/Lease', namedInsured: 'University Health System', coverageLine: 'General and Professional Liability',
  holder: { name: 'Riverside Property Management LLC', address: '1200 SW Main Street, Suite 400\nPortland, OR 97205', email: 'leases@riverside.example' },
  period: { from: '2025-07-01T11:00:00.000Z', to: '2027-06-30T11:00:00.000Z' }, policyYears,
  description: [['Contract number', 'C-2026-0042'], ['Internal contact', 'Sam Staff, 503-555-0199']], requesterName: 'Sam Staff',
});

const CASES: Array<[string, CertificateData]> = [
  ['two policy years as the office enters them', certificate([
    year(2025, 'UHS-PL-2025-26', '2642362.00', '5284721.00'), year(2026, 'UHS-PL-2026-27', '2721633.00', '5443263.00'),
  ])],
  ['a long policy number and limits in the billions', certificate([
    year(2026, 'UHS-PROFESSIONAL-LIABILITY-2026-27-RENEWAL', '1234567890.00', '98765432100.00'),
  ])],
  ['no policy year on record', certificate([])],
];

let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? LETTER_CHROMIUM_PATH });
  page = await browser.newPage({ viewport: { width: PRINTABLE_WIDTH, height: 1000 } });
  await page.emulateMedia({ media: 'print' });
});
afterAll(() => browser?.close());

/** How far (px) the widest section and the widest cell content reach past the frame and past their cell. */
async function overflow(html: string) {
  await page.setContent(html, { waitUntil: 'load' });
  await page.evaluate(() => document.fonts.ready);
  return page.evaluate(() => {
    const right = (el: Element) => el.getBoundingClientRect().right;
    const frames = [...document.querySelectorAll('h2, .box, header, footer')];
    const frameRight = Math.max(...frames.map(right));
    const tables = [...document.querySelectorAll('table')];
    const cells = [...document.querySelectorAll<HTMLElement>('th, td')];
    return {
      frameRight,
      bodyRight: document.body.getBoundingClientRect().right,
      tablePastFrame: Math.max(...tables.map((t) => right(t) - frameRight)),
      textPastCell: Math.max(...cells.map((c) => c.scrollWidth - c.clientWidth)),
      pageScrolls: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    };
  });
}

describe('the certificate\'s Coverage table', () => {
  for (const [name, data] of CASES) {
    for (const [document, html] of [['certificate', certificateHtml(data)], ['letter of intent', letterOfIntentHtml(data)]] as const) {
      it(`stays inside the frame of the other sections on the ${document}: ${name}`, async () => {
        const measured = await overflow(html);
        // The frames themselves fill the printable width (the measure means something) …
        expect(measured.frameRight).toBeCloseTo(measured.bodyRight, 0);
        // … and nothing of the table, nor any cell's text, reaches past them.
        expect(measured.tablePastFrame).toBeLessThanOrEqual(0);
        expect(measured.textPastCell).toBeLessThanOrEqual(0);
        expect(measured.pageScrolls).toBe(0);
      });
    }
  }
});
