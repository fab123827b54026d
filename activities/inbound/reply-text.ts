/**
 * The new text of a reply: what the sender wrote above the quoted message. Stand-in until the shared extraction
 * (quoted history, signatures, "On … wrote:" lines, HTML-only mail) is merged; the rule it keeps: everything from the
 * first attribution line or quoted line on is history, a "-- " line starts a signature.
 */
import type { ParsedMail } from 'mailparser';

export function replyTextOf(mail: Pick<ParsedMail, 'text' | 'html'>): string {
  const text = (mail.text ?? '').replace(/\r\n?/g, '\n');
  const kept: string[] = [];
  for (const line of text.split('\n')) {
    if (/^\s*>/.test(line) || /^On .+ wrote:\s*$/.test(line) || /^-- ?$/.test(line) || /^-{2,}\s*Original Message\s*-{2,}/i.test(line)) break;
    kept.push(line);
  }
  return kept.join('\n').trim();
}
