/**
 * The development accounts (db/seed-data.ts) found in a database: their passwords are published in the README, so an
 * API that faces a network refuses to start while any of them can still sign in (api/server.ts), whatever
 * SEED_DEV_ACCOUNTS says: the setting only stops new seeding, the rows of an earlier development database stay.
 * `npm run admin -- retire-dev-accounts` (node dist/admin.js in the image) retires them.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { kysely } from '../../db/kysely';
import { DEV_ADMIN, DEV_INTERNAL_REQUESTER, DEV_REQUESTER } from '../../db/seed-data';

const DEVELOPMENT_ACCOUNT_EMAILS: readonly string[] = [DEV_ADMIN.email, DEV_REQUESTER.email, DEV_INTERNAL_REQUESTER.email];

const RETIRE_COMMAND = 'npm run admin -- retire-dev-accounts (in the image: node dist/admin.js retire-dev-accounts)';

/** The development accounts that can still sign in with a password: active, with a password set. */
export async function liveDevelopmentAccounts(em: EntityManager): Promise<string[]> {
  const { rows } = await sql<{ email: string }>`
    select "email" from "users" where lower("email") in (${sql.join(DEVELOPMENT_ACCOUNT_EMAILS)}) and "password_hash" is not null and "deleted_at" is null
    order by "email"`.execute(kysely(em));
  return rows.map((row) => row.email);
}

/**
 * Retires them: deactivated (the rows stay, for the requests and the audit that name them), the password removed,
 * every session ended, the development administrator off the admin list. Returns the addresses retired.
 */
export async function retireDevelopmentAccounts(em: EntityManager): Promise<string[]> {
  return em.transactional(async (tx) => {
    const db = kysely(tx);
    const { rows } = await sql<{ email: string }>`
      update "users" set "password_hash" = null, "deleted_at" = coalesce("deleted_at", now()), "session_version" = "session_version" + 1, "updated_at" = now()
       where lower("email") in (${sql.join(DEVELOPMENT_ACCOUNT_EMAILS)}) and ("password_hash" is not null or "deleted_at" is null) returning "email"`.execute(db);
    await db.deleteFrom('admins').where((eb) => eb(eb.fn('lower', ['email']), '=', DEV_ADMIN.email)).execute();
    return rows.map((row) => row.email).sort();
  });
}

/** Why a network-facing API refuses to start, naming the accounts and how to retire them. */
export function developmentAccountsRefusal(host: string, emails: string[]): string {
  return `Refusing to listen on ${host}: this database holds development accounts whose passwords are published (${emails.join(', ')}). `
    + `Retire them with  ${RETIRE_COMMAND}, or listen on a loopback address only (HOST=127.0.0.1).`;
}
