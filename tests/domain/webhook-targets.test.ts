/** The address rules of webhook endpoints (domain/webhook-targets.ts), and the secrets a delivery is signed with. */
import { describe, expect, it } from 'vitest';
import { addressAllowed, addressRefusal, checkWebhookUrl, parseIpv6, secretsInForce, WEBHOOK_URL_MESSAGES } from '../../domain';

const STRICT = { allowHttp: false, allowPrivateTargets: false };

describe('addressRefusal', () => {
  it.each([
    ['127.0.0.1', 'loopback'], ['127.255.0.9', 'loopback'], ['::1', 'loopback'], ['0:0:0:0:0:0:0:1', 'loopback'],
    ['10.0.0.1', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'], ['100.127.255.254', 'private'], ['fc00::1', 'private'], ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'link-local'], ['fe80::1', 'link-local'], ['febf::1', 'link-local'],
    ['0.0.0.0', 'unspecified'], ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'], ['239.255.255.250', 'multicast'], ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'], ['0.1.2.3', 'reserved'], ['192.0.2.1', 'reserved'], ['2001:db8::1', 'reserved'],
    // IPv4 carried in IPv6 is judged as the IPv4 address
    ['::ffff:127.0.0.1', 'loopback'], ['::ffff:7f00:1', 'loopback'], ['::ffff:10.1.1.1', 'private'], ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:c0a8:0101::1', 'private'], ['::127.0.0.1', 'loopback'],
    ['not an address', 'invalid'], ['1.2.3', 'invalid'], ['256.1.1.1', 'invalid'], ['1::2::3', 'invalid'],
  ])('%s is %s', (address, refusal) => {
    expect(addressRefusal(address)).toBe(refusal);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '[2606:4700::1111]'])('%s is public', (address) => {
    expect(addressRefusal(address)).toBeNull();
  });

  it('parses IPv6 with and without compression', () => {
    expect(parseIpv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIpv6('1::8')).toEqual([1, 0, 0, 0, 0, 0, 0, 8]);
    expect(parseIpv6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(parseIpv6('fe80::1%eth0')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIpv6('1:2:3:4:5:6:7:8:9')).toBeNull();
  });

  it('private targets are allowed only when the setting says so; invalid never', () => {
    expect(addressAllowed('127.0.0.1', STRICT)).toBe(false);
    expect(addressAllowed('127.0.0.1', { ...STRICT, allowPrivateTargets: true })).toBe(true);
    expect(addressAllowed('garbage', { ...STRICT, allowPrivateTargets: true })).toBe(false);
  });
});

describe('checkWebhookUrl', () => {
  it('https only, unless http is allowed; no credentials; a host', () => {
    expect(checkWebhookUrl('https://hooks.example/x', STRICT)).toEqual({ host: 'hooks.example' });
    expect(checkWebhookUrl('https://[::1]:8443/x', STRICT)).toEqual({ host: '::1' });
    expect(checkWebhookUrl('http://hooks.example/x', STRICT)).toEqual({ refused: WEBHOOK_URL_MESSAGES.scheme });
    expect(checkWebhookUrl('http://hooks.example/x', { ...STRICT, allowHttp: true })).toEqual({ host: 'hooks.example' });
    expect(checkWebhookUrl('ftp://hooks.example/x', { ...STRICT, allowHttp: true })).toEqual({ refused: WEBHOOK_URL_MESSAGES.scheme });
    expect(checkWebhookUrl('https://u:p@hooks.example/', STRICT)).toEqual({ refused: WEBHOOK_URL_MESSAGES.credentials });
    expect(checkWebhookUrl('hooks.example', STRICT)).toEqual({ refused: WEBHOOK_URL_MESSAGES.invalid });
    expect(checkWebhookUrl(`https://hooks.example/${'a'.repeat(2000)}`, STRICT)).toEqual({ refused: WEBHOOK_URL_MESSAGES.tooLong });
  });
});

describe('secretsInForce', () => {
  const now = new Date('2026-12-01T12:00:00Z');
  it('the previous secret signs until its overlap ends', () => {
    const endpoint = { secret: 'new', previousSecret: 'old', previousSecretUntil: new Date(now.getTime() + 1000) };
    expect(secretsInForce(endpoint, now)).toEqual(['new', 'old']);
    expect(secretsInForce({ ...endpoint, previousSecretUntil: now }, now)).toEqual(['new']);
    expect(secretsInForce({ secret: 'only', previousSecret: null, previousSecretUntil: null }, now)).toEqual(['only']);
  });
});
