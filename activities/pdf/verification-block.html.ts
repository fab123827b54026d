/**
 * The verification block printed at the foot of every certificate and claim-history letter: a QR code (SVG, drawn
 * into the page's HTML before Chromium prints it, so it costs no PDF work) that opens the public verification page
 * for the letter's code, the code in its printed groups, and where to type it.
 */
import QRCode from 'qrcode';
import { formatVerificationCode, verificationUrl } from '../../domain';

export interface VerificationMark {
  /** the printed code `XXXX-XXXX-XXXXX` */
  code: string;
  /** `<PUBLIC_URL>/verify/<code>` */
  url: string;
  /** where a person types the code: `<PUBLIC_URL>/verify` */
  pageUrl: string;
  qrSvg: string;
  /** the PDF will carry the office's digital signature (LETTER_SIGNING on): the block says so */
  signed: boolean;
}

export async function verificationMark(publicUrl: string, storedCode: string, signed = true): Promise<VerificationMark> {
  const url = verificationUrl(publicUrl, storedCode);
  // Medium error correction (a crease or a stamp on paper) and a two-module quiet zone scanners need.
  const qrSvg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { code: formatVerificationCode(storedCode), url, pageUrl: url.slice(0, url.lastIndexOf('/')), qrSvg, signed };
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The block, kept together on the page; `what` names the document ("certificate", "letter"). */
export function verificationBlockHtml(mark: VerificationMark | null | undefined, what: string): string {
  if (!mark) return '';
  return `<section class="verification" style="display:flex;gap:12px;align-items:center;margin-top:14px;padding:8px 10px;border:1px solid #99a;break-inside:avoid;page-break-inside:avoid;font-family:'Liberation Sans','DejaVu Sans',sans-serif;font-size:9pt;line-height:1.35;color:#111">
<div style="width:80px;height:80px;flex:none" aria-hidden="true">${mark.qrSvg.replace('<svg ', '<svg width="80" height="80" ')}</div>
<div><strong style="font-size:10pt">Verification code: <span style="font-family:'Liberation Mono','DejaVu Sans Mono',monospace;letter-spacing:0.5px">${escape(mark.code)}</span></strong><br>
Check that this ${escape(what)} is genuine and still in force: scan the QR code, or go to <strong>${escape(mark.pageUrl)}</strong> and enter the
code. The page says whether it is valid, superseded by a newer one, or revoked.${mark.signed ? ' This PDF is digitally signed by the Risk Management Office.' : ''}</div>
</section>`;
}
