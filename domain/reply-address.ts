/**
 * ANSWERING BY EMAIL: the reply address and the thread ids of a portal email (the one place).
 *
 * An email about a request that invites an answer carries `Reply-To: <local>+<token>@<domain>`; the token names the
 * request and the recipient and is signed on the server (services/reply-token.ts). Mail servers and clients may change
 * the case of a local part, so the token uses only lowercase letters, digits and `-`, and parsing ignores case.
 * The local part stays within the 64 characters SMTP allows (RFC 5321 §4.5.3.1.1).
 *
 * Threading: every email of a request names the request's thread root `<request-<number>@<domain>>` in In-Reply-To
 * and References, so mail clients fold a request's emails (and the answers to them) into one conversation. The root
 * is never sent itself: clients thread on a shared reference all the same.
 */
import { discussionRowOfEmailKey } from './discussions';
import { ADMINISTRATOR_TEMPLATES } from './email-recipients';

/** The token: `<request number>-<24 lowercase base32 characters>` (15 signed bytes, services/reply-token.ts). */
export const REPLY_TOKEN_PATTERN = /^([1-9][0-9]{0,9})-([a-z2-7]{24})$/;
/**
 * The office's name as its email says it: the display name of MAIL_FROM (`Risk Management <…>`), shown beside the
 * reply address and as the author of an administrator's answer through the office mailbox.
 */
export const senderName = (mailFrom: string) => /^\s*"?([^"<]*?)"?\s*</.exec(mailFrom)?.[1]?.trim() || 'Risk Management';

/** SMTP's limit on a local part. */
export const MAX_LOCAL_PART_LENGTH = 64;

/** `<local>+<token>@<domain>`, lowercase. */
export function formatReplyAddress(local: string, token: string, domain: string): string {
  return `${local}+${token}@${domain}`.toLowerCase();
}

/**
 * The token of an address `<local>+<token>@<domain>` (any case; angle brackets and a display name are tolerated),
 * or null when the address is not a reply address of this local part and domain or its token cannot be one.
 */
export function parseReplyAddress(address: string, local: string, domain: string): string | null {
  const bare = /<([^<>]*)>\s*$/.exec(address)?.[1] ?? address;
  const at = bare.trim().toLowerCase().lastIndexOf('@');
  if (at < 0) return null;
  const [localPart, domainPart] = [bare.trim().toLowerCase().slice(0, at), bare.trim().toLowerCase().slice(at + 1)];
  if (domainPart !== domain.toLowerCase()) return null;
  const prefix = `${local.toLowerCase()}+`;
  if (!localPart.startsWith(prefix)) return null;
  const token = localPart.slice(prefix.length);
  return REPLY_TOKEN_PATTERN.test(token) ? token : null;
}

/** The request number a token names (unverified: only services/reply-token.ts says whether it is genuine). */
export function requestNumberOfToken(token: string): number | null {
  const match = REPLY_TOKEN_PATTERN.exec(token.toLowerCase());
  return match ? Number(match[1]) : null;
}

/** The id every email of a request refers to (In-Reply-To, References): `<request-<number>@<domain>>`. */
export const threadRootId = (requestNumber: number, domain: string) => `<request-${requestNumber}@${domain.toLowerCase()}>`;

/** The request number of a thread root id (from an answer's In-Reply-To or References), or null. */
export function requestNumberOfThreadId(messageId: string, domain: string): number | null {
  const match = /^<?request-([1-9][0-9]{0,9})@([^>\s]+)>?$/i.exec(messageId.trim());
  return match && match[2].toLowerCase() === domain.toLowerCase() ? Number(match[1]) : null;
}

/**
 * The Message-ID of one email: from its idempotency key (and the recipient's place, when an email goes to each
 * recipient separately), so a retry sends the same id and a mail client folds a copy.
 */
export function portalMessageId(key: string, domain: string, recipientIndex = 0): string {
  const left = key.replace(/[^A-Za-z0-9.-]/g, '.') + (recipientIndex > 0 ? `.to${recipientIndex + 1}` : '');
  return `<${left}@${domain.toLowerCase()}>`;
}

/**
 * The discussion message a portal email told about, from that email's Message-ID (`<discussion-<row>[.toN]@<domain>>`,
 * as `portalMessageId` made it), or null for any other id. An answer names it in In-Reply-To and References (RFC 5322
 * §3.6.4), which is how the answer joins the thread of the message it answers.
 */
export function discussionRowOfMessageId(messageId: string, domain: string): number | null {
  const match = /^<?([^@<>\s]+)@([^<>\s]+?)>?$/.exec(messageId.trim());
  if (!match || match[2].toLowerCase() !== domain.toLowerCase()) return null;
  return discussionRowOfEmailKey(match[1].replace(/\.to[0-9]+$/, ''));
}

/**
 * WHICH EMAILS INVITE AN ANSWER:
 * - account emails (password reset, email confirmation and the notices about an address): none. They are about a
 *   person, not a request, and an answer has nowhere to go.
 * - the alerts to the administrators' mailbox (ADMINISTRATOR_TEMPLATES: resubmission, escalation, returned to
 *   review): none. They tell the office to look at a request; an answer by email there would be posted to the
 *   requester's discussion, which the office did not mean.
 * - every other email about a request (status changes, reminders, the automatic close, discussion messages either
 *   way, a template an administrator sends by hand): yes.
 */
type PortalEmail = { about: 'account' } | { about: 'request'; templateTitle: string };

export function invitesAnswer(email: PortalEmail): boolean {
  return email.about === 'request' && !ADMINISTRATOR_TEMPLATES.includes(email.templateTitle);
}

/** RFC 4648 base32, lowercase (so a lower-cased address keeps its token), without padding. */
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

/** Decodes lowercase or uppercase base32; null for any other character. */
export function base32Decode(text: string): Uint8Array | null {
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of text.toLowerCase()) {
    const value = BASE32.indexOf(char);
    if (value < 0) return null;
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 255);
      bits -= 8;
    }
    buffer &= (1 << bits) - 1;
  }
  return Uint8Array.from(out);
}
