/**
 * The reply address contract: what the outbound emails carry and the inbound side checks. Pure and crypto only.
 */
import { describe, expect, it } from 'vitest';
import {
  formatReplyAddress, invitesAnswer, MAX_LOCAL_PART_LENGTH, parseReplyAddress, portalMessageId, requestNumberOfThreadId,
  requestNumberOfToken, threadRootId, base32Decode, base32Encode,
} from '../../domain/reply-address';
import { isIssuedTo, issueReplyToken, verifyReplyToken } from '../../services/reply-token';
import { ConfigError, deriveReplyTokenKey, DEVELOPMENT_JWT_SECRET, replySettings } from '../../config/app-config';

const key = deriveReplyTokenKey(DEVELOPMENT_JWT_SECRET);
const otherKey = deriveReplyTokenKey('a-rotated-server-key-0123456789abcdef0123');
const now = new Date('2026-11-27T12:00:00Z');
const token = issueReplyToken({ requestNumber: 50123, recipient: 'Casey.Requester@Hospital.example' }, key, now);

describe('reply token', () => {
  it('is short, lowercase, names the request in the clear and verifies with the key it was signed with', () => {
    expect(token).toMatch(/^50123-[a-z2-7]{24}$/);
    expect(requestNumberOfToken(token)).toBe(50123);
    const claims = verifyReplyToken(token, key, { now });
    expect(claims).toMatchObject({ requestNumber: 50123, expired: false });
    expect(claims!.issuedOn.toISOString()).toBe('2026-11-27T00:00:00.000Z');
  });

  it('survives an MTA that changes the case of the address', () => {
    const address = formatReplyAddress('reply', token, 'coi-portal.local');
    const shouted = address.toUpperCase();
    const parsed = parseReplyAddress(`"Casey" <${shouted}>`, 'reply', 'coi-portal.local');
    expect(parsed).toBe(token);
    expect(verifyReplyToken(parsed!, key, { now })?.requestNumber).toBe(50123);
  });

  it('names its recipient: the same address in any case matches, another address does not', () => {
    const claims = verifyReplyToken(token, key, { now })!;
    expect(isIssuedTo(claims, 'casey.requester@hospital.example', key)).toBe(true);
    expect(isIssuedTo(claims, ' CASEY.REQUESTER@HOSPITAL.EXAMPLE ', key)).toBe(true);
    expect(isIssuedTo(claims, 'someone.else@hospital.example', key)).toBe(false);
    const other = issueReplyToken({ requestNumber: 50123, recipient: 'someone.else@hospital.example' }, key, now);
    expect(other).not.toBe(token);
  });

  it('cannot be forged: another request number, one changed character, or another key fail', () => {
    expect(verifyReplyToken(token.replace('50123-', '50124-'), key, { now })).toBeNull();
    const body = token.split('-')[1];
    for (let i = 0; i < body.length; i += 1) {
      const flipped = body.slice(0, i) + (body[i] === 'a' ? 'b' : 'a') + body.slice(i + 1);
      expect(verifyReplyToken(`50123-${flipped}`, key, { now })).toBeNull();
    }
    expect(verifyReplyToken(token, otherKey, { now })).toBeNull(); // rotating the key revokes every address
    for (const junk of ['', '50123', '50123-', 'abc-aaaaaaaaaaaaaaaaaaaaaaaa', `0-${body}`, `50123-${body}a`, `50123-${body.slice(1)}1`]) {
      expect(verifyReplyToken(junk, key, { now })).toBeNull();
    }
  });

  it('expires after the allowed age (still genuine, so the sender can be told why)', () => {
    const day = 86_400_000;
    expect(verifyReplyToken(token, key, { now: new Date(now.getTime() + 365 * day), maxAgeDays: 365 })?.expired).toBe(false);
    expect(verifyReplyToken(token, key, { now: new Date(now.getTime() + 366 * day), maxAgeDays: 365 })?.expired).toBe(true);
    expect(verifyReplyToken(token, key, { now: new Date(now.getTime() + 31 * day), maxAgeDays: 30 })?.expired).toBe(true);
  });

  it('fits an SMTP local part with the longest request number and the longest allowed local part', () => {
    const longest = issueReplyToken({ requestNumber: 9_999_999_999, recipient: 'a@b.example' }, key, now);
    const local = 'x'.repeat(28);
    expect(`${local}+${longest}`.length).toBeLessThanOrEqual(MAX_LOCAL_PART_LENGTH);
    expect(() => replySettings({ REPLY_TO_LOCAL: 'x'.repeat(29) })).toThrow(ConfigError);
    expect(() => issueReplyToken({ requestNumber: 0, recipient: 'a@b.example' }, key)).toThrow(RangeError);
  });
});

describe('reply address', () => {
  it('belongs to one local part and domain', () => {
    const address = formatReplyAddress('coi-replies', token, 'University.example');
    expect(address).toBe(`coi-replies+${token}@university.example`);
    expect(parseReplyAddress(address, 'coi-replies', 'university.example')).toBe(token);
    expect(parseReplyAddress(address, 'reply', 'university.example')).toBeNull();
    expect(parseReplyAddress(address, 'coi-replies', 'other.example')).toBeNull();
    expect(parseReplyAddress('coi-replies@university.example', 'coi-replies', 'university.example')).toBeNull();
    expect(parseReplyAddress('coi-replies+not-a-token@university.example', 'coi-replies', 'university.example')).toBeNull();
  });

  it('base32 round-trips any bytes', () => {
    for (let length = 0; length < 20; length += 1) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 97 + length * 31) & 255);
      expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    }
    expect(base32Decode('ab1')).toBeNull();
  });
});

describe('threading and which emails invite an answer', () => {
  it('every email of a request refers to the same root; Message-IDs follow the key and the recipient', () => {
    expect(threadRootId(50123, 'Coi-Portal.local')).toBe('<request-50123@coi-portal.local>');
    expect(requestNumberOfThreadId('<request-50123@coi-portal.local>', 'coi-portal.local')).toBe(50123);
    expect(requestNumberOfThreadId('<request-50123@elsewhere.example>', 'coi-portal.local')).toBeNull();
    expect(portalMessageId('request-7:run-1:3', 'coi-portal.local')).toBe('<request-7.run-1.3@coi-portal.local>');
    expect(portalMessageId('request-7:run-1:3', 'coi-portal.local', 1)).toBe('<request-7.run-1.3.to2@coi-portal.local>');
  });

  it('status, discussion and hand-sent emails invite an answer; account emails and the office alerts do not', () => {
    for (const templateTitle of ['Submission Confirmation', 'Request Discussion', 'Additional Information Needed', 'Reminder']) {
      expect(invitesAnswer({ about: 'request', templateTitle })).toBe(true);
    }
    for (const templateTitle of ['Request Resubmission', 'Request Escalation']) {
      expect(invitesAnswer({ about: 'request', templateTitle })).toBe(false);
    }
    expect(invitesAnswer({ about: 'account' })).toBe(false);
  });
});

describe('reply settings', () => {
  it('development: reply@coi-portal.local, a key derived from the server key', () => {
    const settings = replySettings({});
    expect(settings).toMatchObject({ local: 'reply', domain: 'coi-portal.local', tokenMaxAgeDays: 365, messageIdDomain: 'coi-portal.local' });
    expect(settings.tokenKey).toBe(key);
    expect(replySettings({ REPLY_TOKEN_SECRET: 'own-secret' }).tokenKey).toBe('own-secret');
    expect(replySettings({ MAIL_FROM: 'Risk Management <rm@University.example>' }).messageIdDomain).toBe('university.example');
  });

  it('production: no Reply-To until REPLY_TO_DOMAIN is set; the key is derived from JWT_SECRET or its own of 32+ characters', () => {
    const production = { NODE_ENV: 'production', JWT_SECRET: 'a-production-secret-of-enough-length-0123456789' };
    expect(replySettings(production).domain).toBeNull();
    expect(replySettings(production).tokenKey).toBe(deriveReplyTokenKey(production.JWT_SECRET));
    expect(replySettings({ ...production, REPLY_TO_DOMAIN: 'Replies.University.example' }).domain).toBe('replies.university.example');
    expect(() => replySettings({ ...production, REPLY_TOKEN_SECRET: 'short' })).toThrow(/REPLY_TOKEN_SECRET/);
    expect(() => replySettings({ ...production, REPLY_TO_DOMAIN: 'not a domain' })).toThrow(/REPLY_TO_DOMAIN/);
  });
});
