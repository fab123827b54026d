/** nodemailer transport over SMTP (SMTP_URL). Every email of the product goes out through it. */
import nodemailer from 'nodemailer';

export function createMailer(smtpUrl: string) {
  const url = new URL(smtpUrl);
  return nodemailer.createTransport({
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'smtps:' ? 465 : 25)),
    secure: url.protocol === 'smtps:',
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    pool: true,
    maxConnections: 4,
    // Fail fast rather than hold an activity slot: the activity retries (bounded) and its heartbeat shows it alive.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
}
export type Mailer = ReturnType<typeof createMailer>;
