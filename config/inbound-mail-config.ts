/**
 * Settings of answers by email, inbound side: the SMTP listener a university MTA forwards replies to, and the
 * mailbox poller (IMAP) for an office that only gets a mailbox. See docs/SETTINGS.md and docs/OPERATIONS.md.
 */
import { INBOUND_MAX_BYTES_DEFAULT } from '../domain';

export interface ImapSettings {
  host: string;
  port: number;
  /** implicit TLS (993); false only for a local test server */
  secure: boolean;
  user: string;
  mailbox: string;
  pollMs: number;
  /** a password, only where the server still accepts one (never Microsoft 365 or Google) */
  password: string | null;
  /** OAuth2 client credentials (XOAUTH2): Microsoft identity platform, or a ready token endpoint */
  oauth: { tokenUrl: string; clientId: string; clientSecret: string; scope: string } | null;
}

export interface InboundMailSettings {
  /** SMTP listener: INBOUND_SMTP_HOST / INBOUND_SMTP_PORT (0 = no listener); 2525 in development */
  smtpHost: string;
  smtpPort: number;
  /** INBOUND_MAX_BYTES: largest message taken (SIZE extension and counted bytes) */
  maxBytes: number;
  /** IMAP_HOST set: poll that mailbox */
  imap: ImapSettings | null;
}

function imapSettings(env: NodeJS.ProcessEnv): ImapSettings | null {
  const host = env.IMAP_HOST?.trim();
  if (!host) return null;
  const tenant = env.IMAP_OAUTH_TENANT_ID?.trim();
  const tokenUrl = env.IMAP_OAUTH_TOKEN_URL?.trim()
    || (tenant ? `https://login.microsoftonline.com/${encodeURIComponent(tenant)}/oauth2/v2.0/token` : '');
  const clientId = env.IMAP_OAUTH_CLIENT_ID?.trim() ?? '';
  return {
    host,
    port: Number(env.IMAP_PORT || 993),
    secure: (env.IMAP_SECURE ?? 'true') !== 'false',
    user: env.IMAP_USER?.trim() ?? '',
    mailbox: env.IMAP_MAILBOX?.trim() || 'INBOX',
    pollMs: Number(env.IMAP_POLL_MS || 30_000),
    password: env.IMAP_PASSWORD || null,
    oauth: tokenUrl && clientId ? {
      tokenUrl, clientId, clientSecret: env.IMAP_OAUTH_CLIENT_SECRET ?? '',
      scope: env.IMAP_OAUTH_SCOPE?.trim() || 'https://outlook.office365.com/.default',
    } : null,
  };
}

export function loadInboundMailSettings(env: NodeJS.ProcessEnv, production: boolean): InboundMailSettings {
  return {
    // Loopback unless the operator opens it (compose sets 0.0.0.0 inside its network): the listener has no TLS, no AUTH.
    smtpHost: env.INBOUND_SMTP_HOST?.trim() || '127.0.0.1',
    smtpPort: Number(env.INBOUND_SMTP_PORT || (production ? 2525 : 0)),
    maxBytes: Number(env.INBOUND_MAX_BYTES || INBOUND_MAX_BYTES_DEFAULT),
    imap: imapSettings(env),
  };
}
