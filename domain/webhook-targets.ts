/**
 * Where a webhook may be delivered: the rules on an endpoint's address, pure (the resolution of a host name and the
 * connection live in services/webhooks/webhook-targets.ts and are checked against these rules at registration and
 * again at each delivery, so a name that resolves elsewhere later, DNS rebinding, never reaches the office's network).
 *
 * Refused: loopback, private (RFC 1918, CGNAT 100.64/10, IPv6 unique-local fc00::/7), link-local (169.254/16,
 * fe80::/10, where cloud metadata answers), unspecified, multicast and the other reserved ranges; an IPv4 address
 * inside IPv6 (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) is judged as the IPv4 address it carries.
 */

/** Messages an owner reads when an address is refused (the API answers 400 with them, on the `url` field). */
export const WEBHOOK_URL_MESSAGES = {
  invalid: 'Enter a full URL, such as https://example.org/webhooks',
  scheme: 'The URL must start with https://',
  credentials: 'The URL must not contain a user name or password',
  unresolved: 'The host name of this URL could not be found',
  forbiddenAddress: 'This URL points to a private, loopback or reserved network address: webhooks go to public addresses only',
  tooLong: 'The URL must be at most 2000 characters',
} as const;

export const WEBHOOK_URL_MAX_LENGTH = 2000;

/** Why an address is refused, or null when it is a public unicast address. */
export type AddressRefusal = 'loopback' | 'private' | 'link-local' | 'unspecified' | 'multicast' | 'reserved' | 'invalid';

/** A dotted IPv4 address as four bytes, or null. */
export function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : NaN));
  return bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255) ? bytes : null;
}

/** An IPv6 address (with `::`, an IPv4 tail, brackets, no zone) as eight 16-bit groups, or null. */
export function parseIpv6(input: string): number[] | null {
  let text = input.replace(/^\[|\]$/g, '');
  if (text.includes('%')) text = text.slice(0, text.indexOf('%'));
  if (!text.includes(':')) return null;
  // An IPv4 tail (::ffff:192.0.2.1) is two groups written in dots.
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = parseIpv4(last);
    if (!v4) return null;
    text = `${text.slice(0, lastColon + 1)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const parse = (g: string) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN);
  const headValues = head.map(parse);
  const restValues = rest.map(parse);
  if ([...headValues, ...restValues].some(Number.isNaN)) return null;
  const total = headValues.length + restValues.length;
  if (halves.length === 1) return total === 8 ? headValues : null;
  if (total > 7) return null;
  return [...headValues, ...new Array<number>(8 - total).fill(0), ...restValues];
}

function ipv4Refusal([a, b, c]: number[]): AddressRefusal | null {
  if (a === 0) return b === 0 && c === 0 ? 'unspecified' : 'reserved'; // 0.0.0.0/8: "this network"
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 100 && b! >= 64 && b! <= 127) return 'private'; // CGNAT, 100.64.0.0/10
  if (a === 169 && b === 254) return 'link-local';
  if (a! >= 224 && a! <= 239) return 'multicast';
  if (a! >= 240) return 'reserved'; // 240/4 and the broadcast address
  if (a === 192 && b === 0 && (c === 0 || c === 2)) return 'reserved'; // IETF protocol assignments, TEST-NET-1
  if (a === 198 && (b === 18 || b === 19)) return 'reserved'; // benchmarking
  if ((a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return 'reserved'; // TEST-NET-2, -3
  return null;
}

function ipv6Refusal(g: number[]): AddressRefusal | null {
  if (g.every((x) => x === 0)) return 'unspecified';
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return 'loopback';
  const embedded = (hi: number, lo: number) => ipv4Refusal([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible, deprecated): the IPv4 address decides.
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) return embedded(g[6]!, g[7]!) ?? (g[5] === 0 ? 'reserved' : null);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return embedded(g[6]!, g[7]!); // NAT64
  if (g[0] === 0x2002) return embedded(g[1]!, g[2]!); // 6to4
  if ((g[0]! & 0xfe00) === 0xfc00) return 'private'; // unique local, fc00::/7
  if ((g[0]! & 0xffc0) === 0xfe80) return 'link-local'; // fe80::/10
  if ((g[0]! & 0xffc0) === 0xfec0) return 'private'; // site-local (deprecated), fec0::/10
  if ((g[0]! & 0xff00) === 0xff00) return 'multicast';
  if (g[0] === 0x2001 && g[1] === 0x0db8) return 'reserved'; // documentation
  if (g[0] === 0x0100 && g.slice(1, 4).every((x) => x === 0)) return 'reserved'; // discard-only 100::/64
  return null;
}

/** Why a webhook may not go to this IP address (IPv4 or IPv6 text), or null when it may. */
export function addressRefusal(address: string): AddressRefusal | null {
  const v4 = parseIpv4(address);
  if (v4) return ipv4Refusal(v4);
  const v6 = parseIpv6(address);
  return v6 ? ipv6Refusal(v6) : 'invalid';
}

/** The rules a URL is checked with: production allows https only, and never a private address. */
export interface WebhookTargetPolicy {
  /** http:// accepted too (development and tests only: config refuses it in production) */
  allowHttp: boolean;
  /** loopback and private addresses accepted (a local receiver in tests; config refuses it in production) */
  allowPrivateTargets: boolean;
}

/** The host of a URL as DNS or an IP literal names it (brackets of IPv6 removed), or a message why it is refused. */
export function checkWebhookUrl(text: string, policy: WebhookTargetPolicy): { host: string } | { refused: string } {
  if (text.length > WEBHOOK_URL_MAX_LENGTH) return { refused: WEBHOOK_URL_MESSAGES.tooLong };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { refused: WEBHOOK_URL_MESSAGES.invalid };
  }
  if (url.protocol !== 'https:' && !(policy.allowHttp && url.protocol === 'http:')) return { refused: WEBHOOK_URL_MESSAGES.scheme };
  if (url.username || url.password) return { refused: WEBHOOK_URL_MESSAGES.credentials };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!host) return { refused: WEBHOOK_URL_MESSAGES.invalid };
  return { host };
}

/** Whether an address a host resolved to may be connected to under `policy`. */
export const addressAllowed = (address: string, policy: WebhookTargetPolicy): boolean =>
  addressRefusal(address) === null || (policy.allowPrivateTargets && addressRefusal(address) !== 'invalid');
