/**
 * The OAuth2 access token the mailbox poller signs in with (IMAP XOAUTH2): the client-credentials grant of the
 * Microsoft identity platform (`https://login.microsoftonline.com/<tenant>/oauth2/v2.0/token`, scope
 * `https://outlook.office365.com/.default`), or any endpoint speaking the same grant. Kept until a minute before it
 * expires; per poller, nothing shared. Google: a service account with domain-wide delegation signs a JWT instead
 * (docs/OPERATIONS.md); a token endpoint that wraps it can be given as IMAP_OAUTH_TOKEN_URL.
 */
import type { ImapSettings } from '../config/inbound-mail-config';

export type AccessTokenSource = () => Promise<string>;

export function clientCredentialsTokenSource(oauth: NonNullable<ImapSettings['oauth']>, fetchImpl: typeof fetch = fetch): AccessTokenSource {
  let cached: { token: string; until: number } | null = null;
  return async () => {
    if (cached && cached.until > Date.now()) return cached.token;
    const response = await fetchImpl(oauth.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: oauth.clientId, client_secret: oauth.clientSecret, scope: oauth.scope }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = await response.json().catch(() => ({})) as { access_token?: string; expires_in?: number; error?: string; error_description?: string };
    if (!response.ok || !body.access_token) {
      throw new Error(`mailbox token refused (${response.status}): ${body.error ?? ''} ${body.error_description ?? ''}`.trim());
    }
    cached = { token: body.access_token, until: Date.now() + Math.max(0, (body.expires_in ?? 3600) - 60) * 1000 };
    return cached.token;
  };
}
