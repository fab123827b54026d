/**
 * Answers by email: which received mail is automated (never answered, never posted), why a reply is refused and what
 * the sender is told, the size limit and the thread a reply joins. Pure: the listener, the mailbox poller and the
 * processing activity all ask here.
 */

/** Largest message the listener takes (SIZE extension and counted bytes): a 10 MB document grows ~37% in base64. */
export const INBOUND_MAX_BYTES_DEFAULT = 20 * 1024 * 1024;

/**
 * Days a received message's raw bytes (the .eml) are kept once it was processed: long enough to look into a reply
 * someone asks about, while what it posted (the discussion row, its attachments as documents) and its row (sender,
 * size, outcome, dates, and the dedup key that keeps a late redelivery from posting twice) stay for good.
 */
export const INBOUND_RAW_KEEP_DAYS = 30;

interface AutomationHeaders {
  autoSubmitted?: string | null;
  precedence?: string | null;
  listId?: string | null;
  /** MAIL FROM: '' for the null return path `<>` (bounces, delivery reports); null when unknown (IMAP) */
  envelopeFrom?: string | null;
  /** a Return-Path header (IMAP): `<>` is the null return path */
  returnPath?: string | null;
  contentType?: string | null;
}

/**
 * Why a message is automated, or null for a person's mail. Automated mail is never posted and never answered, so no
 * two robots mail each other forever (RFC 3834): Auto-Submitted other than "no" (out-of-office, our own answers),
 * Precedence bulk/list/junk, mailing-list mail (List-Id), the null return path and delivery reports (bounces).
 */
export function automatedMailReason(h: AutomationHeaders): string | null {
  const autoSubmitted = (h.autoSubmitted ?? '').trim().toLowerCase();
  if (autoSubmitted && !autoSubmitted.startsWith('no')) return `Auto-Submitted: ${autoSubmitted}`;
  const precedence = (h.precedence ?? '').trim().toLowerCase();
  if (/^(bulk|list|junk)\b/.test(precedence)) return `Precedence: ${precedence}`;
  if ((h.listId ?? '').trim()) return 'List-Id';
  if (h.envelopeFrom === '' || /^\s*<\s*>\s*$/.test(h.returnPath ?? '')) return 'empty return path';
  if (/^multipart\/report\b/i.test((h.contentType ?? '').trim())) return 'delivery report';
  return null;
}

/**
 * At most one answer an hour to one address: a robot that ignores Auto-Submitted and answers every answer (or a
 * forger sending in someone's name) gets one, never a stream.
 */
export const INBOUND_ANSWER_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Why a reply is not posted:
 * - bad-token: the reply address is not one the portal signed (or names no request). The listener refuses such an
 *   address at RCPT and the mailbox poller leaves its mail unstored, so this is never answered: anyone may forge one,
 *   and answering would mail whoever they name.
 * - expired: a genuine reply address past its age; unknown-sender: a genuine address used from another address than
 *   the one it was sent to; inactive: the sender's account is deactivated; closed: the request is finished;
 *   too-large, empty, too-many (the messages-an-hour quota), unreadable (the text could not be read within the bounds
 *   on depth, size and time: mail-in/processing/reply-text-reader.ts).
 */
export type InboundRefusal = 'bad-token' | 'expired' | 'unknown-sender' | 'inactive' | 'closed' | 'too-large' | 'empty' | 'too-many' | 'unreadable';

/** Whether a refusal is answered (once): every one but a reply address the portal never signed. */
export const answersRefusal = (reason: InboundRefusal): boolean => reason !== 'bad-token';

/** The limits a refusal's answer names: the size limit and the messages an hour one sender may post (the API's quota). */
export interface InboundAnswerLimits { maxBytes: number; messagesPerHour: number }

/** What the sender of a refused reply is told: one short answer saying what to do. */
export function inboundRefusalText(reason: InboundRefusal, portalUrl: string, { maxBytes, messagesPerHour }: InboundAnswerLimits): string {
  const signIn = `Please sign in at ${portalUrl} and post your message in the request's discussion instead.`;
  switch (reason) {
    case 'bad-token':
    case 'expired':
      return `Your email was not posted: the reply address it was sent to is no longer valid. ${signIn}`;
    case 'unknown-sender':
      return `Your email was not posted: replies are accepted only from the address the portal wrote to. ${signIn}`;
    case 'inactive':
      return 'Your email was not posted: your account on the portal is deactivated. Please contact Risk Management if you need access again.';
    case 'closed':
      return `Your email was not posted: this request is completed or closed, so its discussion takes no new messages. If you need something more, please sign in at ${portalUrl} and submit a new request.`;
    case 'too-large':
      return `Your email was not posted: it is larger than ${Math.floor(maxBytes / (1024 * 1024))} MB. Please send a shorter email, or sign in at ${portalUrl} and upload large documents to the request.`;
    case 'too-many':
      return `Your email was not posted: the portal posts at most ${messagesPerHour} messages an hour from one sender (by email and at ${portalUrl} together), and yours reached that. Please send it again in an hour.`;
    case 'empty':
      return `Your email was not posted: we found no new text or attachment above the quoted message. Please write your answer above the quoted text, or ${signIn.charAt(0).toLowerCase()}${signIn.slice(1)}`;
    case 'unreadable':
      return `Your email was not posted: the portal could not read its text. Please send your answer again as plain text, or ${signIn.charAt(0).toLowerCase()}${signIn.slice(1)}`;
  }
}

/**
 * Attachments one reply by email may add: the portal's upload form takes one file at a time, and a person answering
 * sends a few (a signed release, a scan); past this the rest are refused with one note, so a message with a thousand
 * tiny attachments cannot become a thousand documents.
 */
export const INBOUND_ATTACHMENTS_MAX = 10;
export const tooManyAttachmentsNote = (refused: number) =>
  `${refused} more attachment${refused === 1 ? ' was' : 's were'} not added: a reply by email adds at most ${INBOUND_ATTACHMENTS_MAX}.`;

/**
 * The answer's subject. A sender the portal cannot tie to a request (forged or unknown reply address, a stranger)
 * gets a fixed subject: repeating theirs would let anyone have the office's mail server carry their words to any
 * address they name.
 */
export const inboundRefusalSubject = (reason: InboundRefusal, originalSubject: string) =>
  reason === 'bad-token' || reason === 'unknown-sender' || reason === 'expired'
    ? 'Not posted: your email to the portal'
    : `Not posted: ${stripReplyPrefixes(originalSubject) || 'your email to the portal'}`.slice(0, 200);

/** "Re: Fwd: AW: Subject" → "Subject": the topic a reply's subject names. */
export function stripReplyPrefixes(subject: string): string {
  let s = subject.trim();
  for (;;) {
    const next = s.replace(/^(re|fw|fwd|aw|wg|sv|vs|tr|rv|antw)\s*(\[\d+\])?\s*:\s*/i, '');
    if (next === s) return s;
    s = next;
  }
}

/** The workflow that processes one received message, by its dedup key (a hash): a second delivery is the same one. */
export const inboundWorkflowIdOf = (dedupKey: string) => `inbound-${dedupKey}`;

/**
 * The Message-ID a dedup key is made of: angle brackets and the case of the domain do not make another message (a
 * domain is case-insensitive; the part before the last `@` is kept as sent, RFC 5322 §3.6.4).
 */
export function normalizedMessageId(messageId: string | null | undefined): string | null {
  const id = (messageId ?? '').trim().replace(/^<|>$/g, '').trim();
  if (!id) return null;
  const at = id.lastIndexOf('@');
  return at < 0 ? id : id.slice(0, at) + id.slice(at).toLowerCase();
}

/** What a cut reply says at its end (a discussion message holds MESSAGE_MAX = 800 characters; the stored raw email stays whole). */
export const EMAILED_MESSAGE_CUT_MARK = '… (shortened: a discussion message holds 800 characters at most)';

/**
 * The discussion message an emailed reply becomes: its new text (or a line naming the attachments when there is none),
 * then the notes on refused attachments, at most `max` characters. A longer one is cut visibly, never silently, so
 * nobody takes the posted text for all the sender wrote.
 */
export function emailedMessageBody(text: string | null, attachmentsAdded: number, notes: string[], max: number): string {
  const lead = text || `(${attachmentsAdded} attachment${attachmentsAdded === 1 ? '' : 's'} sent by email)`;
  const body = [lead, ...notes].join('\n\n');
  if (body.length <= max) return body;
  return body.slice(0, max - EMAILED_MESSAGE_CUT_MARK.length).trimEnd() + EMAILED_MESSAGE_CUT_MARK;
}
