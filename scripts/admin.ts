/**
 * The admin list from the command line (an operator's first day): `npm run admin -- <command>` in
 * development, `node dist/admin.js <command>` in the image (docker compose run --rm api node dist/admin.js …).
 *
 *   add <email> --first <name> --last <name>   put an address on the admin list (again: updates the names)
 *   remove <email>                             take it off
 *   list                                       the admin list
 *   remove-sample-policy-years                 delete the made-up policy years an earlier development seed left
 *                                              (db/sample-policy-years.ts; a production start refuses while they exist)
 *   resume                                     after a restore into an empty Temporal: re-create the workflows of the
 *                                              open requests and running exports from PostgreSQL (services/requests/resume-requests.ts)
 *   retire-dev-accounts                        deactivate the development accounts a database holds (services/accounts/development-accounts.ts):
 *                                              an API facing a network refuses to start while they can sign in
 *
 * Administrator rights come from the list (spec 2 §7.11) for an identity that is proven (docs/ACCOUNTS.md
 * "Identity"): a member of the university signs in with single sign-on, which proves their address, and is an
 * administrator from their first sign-in. Recorded in the security log like a change made on /manage/admins.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/app-config';
import { AdminSchema } from '../db/entities';
import { retireDevelopmentAccounts } from '../services/accounts/development-accounts';
import { createOrm } from '../db/orm';
import { removeSamplePolicyYears } from '../db/sample-policy-years';
import { isEmailAddress } from '../domain';
import { recordSecurityEvent } from '../services/desk/security-log';
import { createTemporalClient } from '../temporal/connection';
import { resumeRequests } from '../services/requests/resume-requests';

const USAGE = `Usage: admin <command>
  add <email> --first <first name> --last <last name>   put an address on the admin list (or update its names)
  remove <email>                                          take an address off the admin list
  list                                                    print the admin list
  remove-sample-policy-years                              delete the sample policy years a development seed left
  resume                                                  after a restore into an empty Temporal: re-create the workflows
                                                          of open requests and running exports from PostgreSQL
  retire-dev-accounts                                     deactivate the development accounts (published passwords):
                                                          password removed, sessions ended, off the admin list
The person then signs in with university single sign-on (which proves the address) and is an administrator.`;

const { values, positionals } = parseArgs({
  args: process.argv.slice(2), allowPositionals: true,
  options: { first: { type: 'string' }, last: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
});
const [command, rawEmail] = positionals;
if (values.help || !command) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}

function fail(message: string): never {
  console.error(`admin: ${message}\n\n${USAGE}`);
  process.exit(2);
}

const email = rawEmail?.trim().toLowerCase();
if ((command === 'add' || command === 'remove') && (!email || !isEmailAddress(email))) fail(`"${rawEmail ?? ''}" is not an email address`);
if (command === 'add' && (!values.first?.trim() || !values.last?.trim())) fail('add needs --first and --last');
if (!['add', 'remove', 'list', 'resume', 'remove-sample-policy-years', 'retire-dev-accounts'].includes(command)) fail(`unknown command "${command}"`);

const config = loadConfig();
const orm = await createOrm(config.databaseUrl, { poolMax: 1 });
try {
  const em = orm.em.fork();
  if (command === 'resume') {
    const client = await createTemporalClient(config.temporalAddress, config.temporalNamespace);
    try {
      await resumeRequests(client, em, config.taskQueue, (line) => console.log(line));
    } finally {
      await client.connection.close();
    }
  } else if (command === 'remove-sample-policy-years') {
    const removed = await removeSamplePolicyYears(em as never);
    console.log(removed.length
      ? `Removed ${removed.length} sample policy years (${removed[0].policyNumber} … ${removed.at(-1)!.policyNumber}). Enter the real ones under Manage > Policies.`
      : 'No sample policy years in this database.');
  } else if (command === 'retire-dev-accounts') {
    const retired = await retireDevelopmentAccounts(em);
    for (const address of retired) await recordSecurityEvent(em, { kind: 'userDeactivated', email: address, detail: { by: 'command line', reason: 'development account' } });
    console.log(retired.length ? `Retired the development accounts ${retired.join(', ')}: deactivated, no password, signed out.` : 'No development account can sign in here.');
  } else if (command === 'list') {
    const admins = await em.find(AdminSchema, {}, { orderBy: { lastName: 'asc', firstName: 'asc' } });
    for (const a of admins) console.log(`${a.email}\t${a.firstName} ${a.lastName}`);
    console.log(`${admins.length} administrator${admins.length === 1 ? '' : 's'}`);
  } else if (command === 'add') {
    const existing = await em.findOne(AdminSchema, { email });
    const names = { firstName: values.first!.trim(), lastName: values.last!.trim() };
    if (existing) em.assign(existing, names);
    else em.create(AdminSchema, { email: email!, ...names });
    await em.flush();
    await recordSecurityEvent(em, { kind: 'adminAdded', email, detail: { by: 'command line', updated: !!existing } });
    console.log(`${email} is ${existing ? 'still' : 'now'} on the admin list. They sign in with university single sign-on and are an administrator from then on.`);
  } else {
    const removed = await em.nativeDelete(AdminSchema, { email });
    if (removed) await recordSecurityEvent(em, { kind: 'adminRemoved', email, detail: { by: 'command line' } });
    console.log(removed ? `${email} is off the admin list (from the next call on).` : `${email} was not on the admin list.`);
  }
} finally {
  await orm.close();
}
