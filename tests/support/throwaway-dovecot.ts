/**
 * A throwaway Dovecot IMAP server for tests (Debian's dovecot-imapd): plain IMAP on a free loopback port, one mailbox
 * user with a password, and XOAUTH2 checked against a local introspection endpoint (the stand-in for Microsoft's or
 * Google's token check). `available()` is false where the binary is not installed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile, chmod, mkdir } from 'node:fs/promises';
import http from 'node:http';
import { Socket, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../temporal/ports';

export const DOVECOT = '/usr/sbin/dovecot';
export const dovecotAvailable = () => existsSync(DOVECOT) && process.getuid?.() === 0;

export interface Dovecot { port: number; user: string; password: string; validToken: string; introspected: string[]; stop(): Promise<void> }

export async function startDovecot(): Promise<Dovecot> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'coi-dovecot-'));
  await chmod(dir, 0o755);
  const home = path.join(dir, 'home');
  await mkdir(home, { recursive: true });
  await chmod(home, 0o777);
  const user = 'replies@coi.test';
  const password = 'mailbox-password';
  const validToken = `token-${Date.now()}`;
  const introspected: string[] = [];
  const introspection = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      const token = new URLSearchParams(body).get('token') ?? '';
      introspected.push(token);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(token === validToken ? { active: true, username: user } : { active: false }));
    });
  });
  await new Promise<void>((resolve) => introspection.listen(0, '127.0.0.1', resolve));
  const port = await freePort();
  await writeFile(path.join(dir, 'passwd'), `${user}:{PLAIN}${password}\n`);
  await writeFile(path.join(dir, 'oauth2.conf.ext'), [
    'introspection_mode = post', `introspection_url = http://127.0.0.1:${(introspection.address() as AddressInfo).port}/introspect`,
    'username_attribute = username', 'active_attribute = active', 'active_value = true', '',
  ].join('\n'));
  await writeFile(path.join(dir, 'dovecot.conf'), `
base_dir = ${dir}/run
instance_name = coi-test-${port}
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login xoauth2
first_valid_uid = 1
passdb {
  driver = oauth2
  mechanisms = xoauth2
  args = ${dir}/oauth2.conf.ext
}
passdb {
  driver = passwd-file
  mechanisms = plain login
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=65534 gid=65534 home=${home}/%u
}
mail_location = maildir:~/Maildir
log_path = ${dir}/dovecot.log
service imap-login {
  chroot =
  inet_listener imap {
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
`);
  const child: ChildProcess = spawn(DOVECOT, ['-F', '-c', path.join(dir, 'dovecot.conf')], { stdio: 'ignore' });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      socket.once('connect', () => { socket.destroy(); resolve(true); });
      socket.once('error', () => resolve(false));
      socket.connect(port, '127.0.0.1');
    });
    if (open) break;
    if (Date.now() > deadline) throw new Error('dovecot did not listen within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    port, user, password, validToken, introspected,
    async stop() {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      await new Promise<void>((resolve) => introspection.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
