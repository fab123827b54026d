/**
 * Resolving an endpoint's host and holding its addresses to the rules of domain/webhook-targets.ts: at registration
 * (every address the name has now) and at each delivery, inside the connection's own lookup, so the address checked
 * is the address connected to (a name that resolves to a public address at the check and to 127.0.0.1 a moment
 * later, DNS rebinding, still never reaches the inside).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { addressAllowed, checkWebhookUrl, WEBHOOK_URL_MESSAGES, type WebhookTargetPolicy } from '../../domain';

type Lookup = (host: string) => Promise<LookupAddress[]>;

const systemLookup: Lookup = (host) => new Promise((resolve, reject) => {
  dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
});

/** Every address `host` names (itself when it is an IP literal). */
async function addressesOf(host: string, lookup: Lookup): Promise<LookupAddress[]> {
  const family = isIP(host);
  return family ? [{ address: host, family }] : lookup(host);
}

/**
 * Null when `url` may receive webhooks under `policy`, else the message why not: its form, then every address its
 * host resolves to now (one forbidden address refuses it: a resolver may answer with any of them later).
 */
export async function webhookUrlRefusal(url: string, policy: WebhookTargetPolicy, lookup: Lookup = systemLookup): Promise<string | null> {
  const checked = checkWebhookUrl(url, policy);
  if ('refused' in checked) return checked.refused;
  let addresses: LookupAddress[];
  try {
    addresses = await addressesOf(checked.host, lookup);
  } catch {
    return WEBHOOK_URL_MESSAGES.unresolved;
  }
  if (!addresses.length) return WEBHOOK_URL_MESSAGES.unresolved;
  return addresses.every((a) => addressAllowed(a.address, policy)) ? null : WEBHOOK_URL_MESSAGES.forbiddenAddress;
}

/** Thrown by the guarded lookup: the connection is never opened. */
export class ForbiddenTargetError extends Error {
  override readonly name = 'ForbiddenTargetError';
}

/**
 * A `lookup` for http(s).request that resolves the host and refuses the connection when any address is forbidden,
 * then connects to the first allowed one: the check and the connection use the same answer.
 */
export function guardedLookup(policy: WebhookTargetPolicy, lookup: Lookup = systemLookup): LookupFunction {
  return (hostname, options, callback) => {
    addressesOf(hostname, lookup).then((addresses) => {
      const refused = addresses.find((a) => !addressAllowed(a.address, policy));
      if (refused || !addresses.length) {
        callback(new ForbiddenTargetError(refused ? `${hostname} resolves to ${refused.address}: ${WEBHOOK_URL_MESSAGES.forbiddenAddress}` : WEBHOOK_URL_MESSAGES.unresolved), '', 4);
        return;
      }
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    }, (error: Error) => callback(error as NodeJS.ErrnoException, '', 4));
  };
}
