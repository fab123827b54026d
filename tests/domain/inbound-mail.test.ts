/** Which received mail is automated (never posted, never answered), the refusal texts and the thread a reply joins. */
import { describe, expect, it } from 'vitest';
import {
  answersRefusal, automatedMailReason, EMAILED_MESSAGE_CUT_MARK, emailedMessageBody, inboundRefusalSubject, inboundRefusalText, normalizedMessageId,
  stripReplyPrefixes,
} from '../../domain';
import { discussionRowOfMessageId } from '../../domain/reply-address';

describe('automated mail', () => {
  it('honours Auto-Submitted (not "no"), Precedence bulk/list/junk, List-Id, the null return path and delivery reports', () => {
    expect(automatedMailReason({ autoSubmitted: 'auto-replied' })).toBe('Auto-Submitted: auto-replied');
    expect(automatedMailReason({ autoSubmitted: 'auto-generated; owner-email="x@y"' })).toMatch(/^Auto-Submitted/);
    expect(automatedMailReason({ autoSubmitted: 'no' })).toBeNull();
    expect(automatedMailReason({ precedence: 'bulk' })).toBe('Precedence: bulk');
    expect(automatedMailReason({ precedence: 'List' })).toBe('Precedence: list');
    expect(automatedMailReason({ precedence: 'junk' })).toBe('Precedence: junk');
    expect(automatedMailReason({ precedence: 'first-class' })).toBeNull();
    expect(automatedMailReason({ listId: '<staff.hospital.example>' })).toBe('List-Id');
    expect(automatedMailReason({ envelopeFrom: '' })).toBe('empty return path');
    expect(automatedMailReason({ envelopeFrom: null, returnPath: '<>' })).toBe('empty return path');
    expect(automatedMailReason({ contentType: 'multipart/report; report-type=delivery-status' })).toBe('delivery report');
    expect(automatedMailReason({ envelopeFrom: 'pat@hospital.example', contentType: 'text/plain' })).toBeNull();
  });
});

const LIMITS = { maxBytes: 20 * 1024 * 1024, messagesPerHour: 30 };

describe('refusals and threads', () => {
  it('tells the sender what to do, in one short answer per reason', () => {
    for (const reason of ['bad-token', 'unknown-sender', 'closed', 'too-large', 'empty', 'too-many'] as const) {
      const text = inboundRefusalText(reason, 'https://portal.example', LIMITS);
      expect(text).toContain('https://portal.example');
      expect(text.length).toBeLessThan(300);
    }
    expect(inboundRefusalText('too-large', 'https://portal.example', LIMITS)).toContain('larger than 20 MB');
    expect(inboundRefusalText('too-many', 'https://portal.example', LIMITS)).toContain('at most 30 messages an hour');
  });

  it('a reply joins the topic its subject names', () => {
    expect(stripReplyPrefixes('Re: RE: Fwd: AW: Dates of coverage')).toBe('Dates of coverage');
    expect(stripReplyPrefixes('Re[2]: Dates')).toBe('Dates');
    expect(stripReplyPrefixes('Regarding dates')).toBe('Regarding dates');
    expect(normalizedMessageId(' <abc@phone.example> ')).toBe('abc@phone.example');
    expect(normalizedMessageId('')).toBeNull();
  });

  it('a Message-ID is the same message whatever the case of its domain (its left part keeps its case)', () => {
    expect(normalizedMessageId('<AbC.123@Phone.EXAMPLE>')).toBe('AbC.123@phone.example');
    expect(normalizedMessageId('<AbC.123@phone.example>')).toBe('AbC.123@phone.example');
    expect(normalizedMessageId('<no-domain-at-all>')).toBe('no-domain-at-all');
  });

  it('an answer names the message it answers by the Message-ID of the portal\'s email about it', () => {
    expect(discussionRowOfMessageId('<discussion-42@coi-portal.local>', 'coi-portal.local')).toBe(42);
    expect(discussionRowOfMessageId('<discussion-42.to3@COI-Portal.local>', 'coi-portal.local')).toBe(42);
    expect(discussionRowOfMessageId('discussion-42@coi-portal.local', 'coi-portal.local')).toBe(42);
    expect(discussionRowOfMessageId('<discussion-42@elsewhere.example>', 'coi-portal.local')).toBeNull();
    expect(discussionRowOfMessageId('<request-50001@coi-portal.local>', 'coi-portal.local')).toBeNull();
    expect(discussionRowOfMessageId('<status-50001-3@coi-portal.local>', 'coi-portal.local')).toBeNull();
  });

  it('a reply address nobody signed is never answered; every other refusal is, once', () => {
    expect(answersRefusal('bad-token')).toBe(false);
    for (const reason of ['expired', 'unknown-sender', 'inactive', 'closed', 'too-large', 'empty', 'too-many', 'unreadable'] as const) {
      expect(answersRefusal(reason), reason).toBe(true);
    }
    expect(inboundRefusalSubject('expired', 'Buy now')).toBe('Not posted: your email to the portal');
    expect(inboundRefusalSubject('unknown-sender', 'Buy now')).toBe('Not posted: your email to the portal');
    expect(inboundRefusalSubject('unreadable', 'Re: Dates')).toBe('Not posted: Dates');
  });
});

describe('the discussion message an emailed reply becomes', () => {
  it('is the new text, then the notes on refused attachments', () => {
    expect(emailedMessageBody('Here is the release.', 1, ['(virus.exe was not kept: type not accepted)'], 800))
      .toBe('Here is the release.\n\n(virus.exe was not kept: type not accepted)');
  });
  it('names the attachments when the reply has no text', () => {
    expect(emailedMessageBody(null, 1, [], 800)).toBe('(1 attachment sent by email)');
    expect(emailedMessageBody('', 2, [], 800)).toBe('(2 attachments sent by email)');
  });
  it('cuts a reply longer than the limit visibly, within the limit', () => {
    const long = 'word '.repeat(400);
    const body = emailedMessageBody(long, 0, [], 800);
    expect(body.length).toBeLessThanOrEqual(800);
    expect(body.length).toBeGreaterThan(790);
    expect(body.endsWith(EMAILED_MESSAGE_CUT_MARK)).toBe(true);
    expect(body.startsWith('word word')).toBe(true);
    expect(emailedMessageBody('x'.repeat(800), 0, [], 800)).toBe('x'.repeat(800));
  });
});
