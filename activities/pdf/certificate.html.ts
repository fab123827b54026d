/**
 * The Certificate of Insurance and the Letter of Intent as HTML (printed to PDF by Chromium). Data comes from the
 * effect's snapshot (activities/effects/certificate-data.ts), never from the live request.
 */
import { DEFAULT_OFFICE_TIME_ZONE, formatOfficeDate, formatUsd, PRODUCT_NAME, PRODUCT_TITLE } from '../../domain';
import type { LetterPolicyYear } from './credentialing-letter.html';
import { verificationBlockHtml, type VerificationMark } from './verification-block.html';

export interface CertificateData {
  requestNumber: number;
  /** the office's day of issue, `yyyy-mm-dd` (older snapshots: the ISO instant) */
  issuedOn: string;
  /** the office's time zone the dates print in (absent in older snapshots) */
  timeZone?: string;
  certificateType: string;
  /** "Auto Liability: Rental" and the like */
  subtypeLabel: string;
  holder: { name: string; address: string; email: string | null };
  namedInsured: string;
  coverageLine: string;
  period: { from: string; to: string };
  policyYears: LetterPolicyYear[];
  /** the insured activity, label and value, in reading order */
  description: Array<[string, string]>;
  requesterName: string;
}

/** A date as the office reads it. */
const printed = (d: { timeZone?: string }, value: string | null | undefined) => formatOfficeDate(value, d.timeZone ?? DEFAULT_OFFICE_TIME_ZONE);

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const lines = (text: string) => escape(text).replace(/\n/g, '<br>');

const STYLE = `
  body { font-family: 'Liberation Sans', 'DejaVu Sans', sans-serif; font-size: 10.5pt; color: #111; line-height: 1.4; }
  header { display: flex; justify-content: space-between; border-bottom: 3px solid #1d3f72; padding-bottom: 8px; margin-bottom: 14px; }
  header h1 { font-size: 17pt; color: #1d3f72; margin: 0; }
  header p { margin: 2px 0 0; font-size: 9pt; color: #444; }
  .meta { text-align: right; font-size: 9.5pt; }
  h2 { font-size: 11pt; background: #e8eef7; border: 1px solid #99a; padding: 3px 6px; margin: 14px 0 0; }
  .box { border: 1px solid #99a; border-top: 0; padding: 6px 8px; }
  .grid { display: grid; grid-template-columns: 1fr 1fr; gap: 0; }
  /* The Coverage table keeps to the frame of the other sections, whatever a policy number or limit holds: its
     columns are fixed shares of the printable width (fixed layout never widens a table for its content) and a value
     too long for its column wraps inside its cell. */
  table { border-collapse: collapse; width: 100%; box-sizing: border-box; table-layout: fixed; font-size: 9.5pt; }
  th, td { border: 1px solid #99a; padding: 4px 6px; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
  th { background: #f3f5f9; font-weight: bold; }
  .num { text-align: right; }
  dl { display: grid; grid-template-columns: 34% 66%; margin: 0; }
  dt { font-weight: bold; padding: 2px 0; } dd { margin: 0; padding: 2px 0; }
  footer { margin-top: 18px; font-size: 8.5pt; color: #444; border-top: 1px solid #99a; padding-top: 6px; }
  .letter p { margin: 0 0 10px; font-family: 'Liberation Serif', 'DejaVu Serif', serif; font-size: 11.5pt; }
`;

/** Shares of the printable width: policy numbers, dates and limits as offices enter them fit their columns on one line. */
const COVERAGE_COLUMNS = '<colgroup><col style="width:22%"><col style="width:20%"><col style="width:12.5%"><col style="width:12.5%">'
  + '<col style="width:16.5%"><col style="width:16.5%"></colgroup>';

function policyTable(d: CertificateData): string {
  const rows = d.policyYears.length
    ? d.policyYears.map((y) => `<tr><td>${escape(d.coverageLine)}</td><td>${escape(y.policyNumber)}</td>` +
      `<td>${escape(printed(d, y.startDate))}</td><td>${escape(printed(d, y.endDate))}</td>` +
      `<td class="num">${escape(formatUsd(y.limitClaim))}</td><td class="num">${escape(formatUsd(y.annualAggregate))}</td></tr>`).join('')
    : `<tr><td>${escape(d.coverageLine)}</td><td colspan="5">No policy year on record covers ${escape(printed(d, d.period.from))} – ${escape(printed(d, d.period.to))}.</td></tr>`;
  return `<table>${COVERAGE_COLUMNS}<thead><tr><th>Type of coverage</th><th>Policy number</th><th>Policy effective</th><th>Policy expiration</th>` +
    `<th class="num">Each occurrence / claim</th><th class="num">Annual aggregate</th></tr></thead><tbody>${rows}</tbody></table>`;
}

const descriptionList = (d: CertificateData) =>
  `<dl>${d.description.map(([label, value]) => `<dt>${escape(label)}</dt><dd>${lines(value)}</dd>`).join('')}</dl>`;

const holderBlock = (d: CertificateData) =>
  `<strong>${escape(d.holder.name)}</strong><br>${lines(d.holder.address)}${d.holder.email ? `<br>${escape(d.holder.email)}` : ''}`;

export function certificateHtml(d: CertificateData, verification?: VerificationMark | null): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Certificate of Insurance ${d.requestNumber}</title><style>${STYLE}</style></head><body>
<header><div><h1>Certificate of Insurance</h1><p>${escape(PRODUCT_NAME)} Risk Management · ${escape(PRODUCT_TITLE)}</p></div>
<div class="meta">Date issued: ${escape(printed(d, d.issuedOn))}<br>Request number: ${d.requestNumber}<br>${escape(d.subtypeLabel)}</div></header>
<p>This certificate is issued as a matter of information only and confers no rights upon the certificate holder. It does not
amend, extend or alter the coverage afforded by the program below. Additional insureds cannot be named on this certificate.</p>
<div class="grid">
<div><h2>Named insured</h2><div class="box">${escape(d.namedInsured)}<br>Risk Management Office</div></div>
<div><h2>Certificate holder</h2><div class="box">${holderBlock(d)}</div></div>
</div>
<h2>Coverage</h2>
${policyTable(d)}
<h2>Description of insured activity</h2>
<div class="box">${descriptionList(d)}</div>
<footer>Coverage period requested: ${escape(printed(d, d.period.from))} – ${escape(printed(d, d.period.to))}. Should the program
above be cancelled before its expiration date, notice will be delivered in accordance with its provisions. Requested by
${escape(d.requesterName)}. Generated by the ${escape(PRODUCT_TITLE)}.</footer>
${verificationBlockHtml(verification, 'certificate')}
</body></html>`;
}

export function letterOfIntentHtml(d: CertificateData): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Letter of Intent ${d.requestNumber}</title><style>${STYLE}</style></head><body class="letter">
<header><div><h1>Letter of Intent</h1><p>${escape(PRODUCT_NAME)} Risk Management · ${escape(PRODUCT_TITLE)}</p></div>
<div class="meta">Date: ${escape(printed(d, d.issuedOn))}<br>Request number: ${d.requestNumber}<br>${escape(d.subtypeLabel)}</div></header>
<p>${holderBlock(d)}</p>
<p>To whom it may concern:</p>
<p>${escape(d.namedInsured)} intends to provide evidence of insurance to <strong>${escape(d.holder.name)}</strong> for the
contract or lease described below. Once the agreement is fully executed and the Off-Campus Authorization (OCA) or contract
review is complete, Risk Management will issue a Certificate of Insurance showing the coverage below for the policy year in force.</p>
${descriptionList(d)}
<h2>Coverage to be certified</h2>
${policyTable(d)}
<p style="margin-top:14px">This letter is not a certificate of insurance and confers no rights upon its addressee. Additional insureds
cannot be named.</p>
<p>Sincerely,<br>Risk Management Office, ${escape(PRODUCT_NAME)}</p>
<footer>Requested by ${escape(d.requesterName)}. Generated by the ${escape(PRODUCT_TITLE)}.</footer>
</body></html>`;
}
