/** Verification codes (domain/verification-code.ts) and issued letters' status and revocation (domain/issued-letters.ts). */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  certificateStatus, formatVerificationCode, isWellFormedVerificationCode, newVerificationCode, normalizeVerificationCode,
  oneLineActivity, REVOKE_REASONS, revokeErrors, revokeRefusal, VERIFICATION_CODE_ALPHABET, VERIFICATION_CODE_LENGTH,
  VERIFICATION_CODE_RANDOM_BYTES, verificationUrl,
} from '../../domain';

describe('verification codes', () => {
  it('has 32 symbols without look-alikes and at least 60 bits', () => {
    expect(new Set(VERIFICATION_CODE_ALPHABET).size).toBe(32);
    for (const c of 'ILOU') expect(VERIFICATION_CODE_ALPHABET).not.toContain(c);
    expect(VERIFICATION_CODE_LENGTH * Math.log2(VERIFICATION_CODE_ALPHABET.length)).toBeGreaterThanOrEqual(60);
    expect(VERIFICATION_CODE_RANDOM_BYTES).toBe(9);
  });

  it('draws every symbol from 5 bits of the random bytes, in order', () => {
    expect(newVerificationCode(new Uint8Array(9))).toBe('0000000000000');
    expect(newVerificationCode(new Uint8Array(9).fill(255))).toBe('ZZZZZZZZZZZZZ');
    // 0b00001 00010 00011 ... : bytes 0x08 0x86 0x42 ...
    const bits = Array.from({ length: 13 }, (_, i) => (i + 1).toString(2).padStart(5, '0')).join('').padEnd(72, '0');
    const bytes = Uint8Array.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
    expect(newVerificationCode(bytes)).toBe('123456789ABCD');
    expect(() => newVerificationCode(new Uint8Array(8))).toThrow(RangeError);
  });

  it('is well formed, spread over the alphabet and does not collide in 20,000 draws', () => {
    const seen = new Set<string>();
    const counts = new Map<string, number>();
    for (let i = 0; i < 20_000; i += 1) {
      const code = newVerificationCode(randomBytes(VERIFICATION_CODE_RANDOM_BYTES));
      expect(isWellFormedVerificationCode(code)).toBe(true);
      seen.add(code);
      for (const c of code) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    expect(seen.size).toBe(20_000);
    expect(counts.size).toBe(32);
    // 260,000 symbols over 32: each ≈ 8,125
    for (const n of counts.values()) expect(n).toBeGreaterThan(7_000);
  });

  it('prints in groups and reads back whatever a person types', () => {
    expect(formatVerificationCode('7K3M9QWX2P4RT')).toBe('7K3M-9QWX-2P4RT');
    expect(normalizeVerificationCode('7k3m-9qwx-2p4rt')).toBe('7K3M9QWX2P4RT');
    expect(normalizeVerificationCode(' 7K3M 9QWX 2P4RT ')).toBe('7K3M9QWX2P4RT');
    expect(normalizeVerificationCode('7K3M–9QWX—2P4RT')).toBe('7K3M9QWX2P4RT');
    // look-alikes: O is zero, I and L are one
    expect(normalizeVerificationCode('OoIiLl')).toBe('001111');
    expect(isWellFormedVerificationCode(normalizeVerificationCode('7k3m-9qwx-2p4rt'))).toBe(true);
    expect(formatVerificationCode('7k3m9qwx2p4rt')).toBe('7K3M-9QWX-2P4RT');
  });

  it('refuses codes of the wrong length or with symbols outside the alphabet', () => {
    for (const bad of ['', '7K3M9QWX2P4R', '7K3M9QWX2P4RTT', '7K3M9QWX2P4RU', '7K3M9QWX2P4R!', '7K3M-9QWX-2P4RT']) {
      expect(isWellFormedVerificationCode(bad)).toBe(false);
    }
    expect(isWellFormedVerificationCode(normalizeVerificationCode('7K3M9QWX2P4RU'))).toBe(false);
  });

  it('links to the public page with the printed code', () => {
    expect(verificationUrl('https://coi.example.edu/', '7K3M9QWX2P4RT')).toBe('https://coi.example.edu/verify/7K3M-9QWX-2P4RT');
  });
});

describe('issued letters', () => {
  const at = new Date('2026-11-27T10:00:00Z');
  it('is Revoked over Superseded over Valid', () => {
    expect(certificateStatus({ revokedAt: null, supersededAt: null })).toBe('Valid');
    expect(certificateStatus({ revokedAt: null, supersededAt: at })).toBe('Superseded');
    expect(certificateStatus({ revokedAt: at, supersededAt: null })).toBe('Revoked');
    expect(certificateStatus({ revokedAt: at.toISOString(), supersededAt: at })).toBe('Revoked');
  });

  it('revokes only a valid letter, for a listed reason, with a note for "Other"', () => {
    expect(revokeRefusal({ revokedAt: null, supersededAt: null })).toBeNull();
    expect(revokeRefusal({ revokedAt: at, supersededAt: null })).toMatch(/already been revoked/);
    expect(revokeRefusal({ revokedAt: null, supersededAt: at })).toMatch(/superseded/);
    expect(REVOKE_REASONS).toEqual(['Issued in error', 'Coverage cancelled', 'Details changed', 'Other']);
    expect(revokeErrors({ reason: 'Issued in error' })).toEqual({});
    expect(revokeErrors({ reason: 'Because' }).reason).toBeDefined();
    expect(revokeErrors({ reason: 'Other', note: '  ' }).note).toMatch(/Say why/);
    expect(revokeErrors({ reason: 'Other', note: 'Venue closed' })).toEqual({});
    expect(revokeErrors({ reason: 'Details changed', note: 'x'.repeat(501) }).note).toMatch(/500/);
  });

  it('puts the insured activity on one line', () => {
    expect(oneLineActivity([['Event', 'Spring\n  gala'], ['Location', 'Main hall']])).toBe('Event: Spring gala; Location: Main hall');
    const long = oneLineActivity([['Event', 'x'.repeat(400)]]);
    expect(long).toHaveLength(200);
    expect(long.endsWith('…')).toBe(true);
  });
});
