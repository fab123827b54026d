/**
 * Seeds what the portal needs; safe to run at every start (inserts only what is missing). The reference data (request
 * counter, email templates, FAQs) always; the sample policy years only with `samplePolicyYears` (never in production:
 * their numbers and limits are made up and would print on certificates); the development accounts (DEV_ADMIN,
 * DEV_REQUESTER, whose passwords are published in the README) only with `devAccounts` (config.seedDevAccounts: never
 * in production).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { AdminSchema, CounterSchema, EmailTemplateSchema, FaqSchema, PersonSchema, PolicyYearSchema, UserSchema } from './entities';
import {
  DEV_ADMIN, DEV_INTERNAL_REQUESTER, DEV_REQUESTER, FIRST_REQUEST_NUMBER, generateDirectory, SEED_EMAIL_TEMPLATES, SEED_FAQS, seedPolicyYears,
  EXTRA_EMAIL_TEMPLATES, DEVELOPMENT_INSTANT_RULES,
} from './seed-data';
import { PRODUCT_NAME } from '../domain/reference-lists';
import { findSamplePolicyYears, samplePolicyYearsFound } from './sample-policy-years';
import { sql } from 'kysely';
import { kysely } from './kysely';

interface SeedOptions {
  devAccounts: boolean;
  /** Development and tests: sample policy years, so a demo certificate has coverage. Production: none. */
  samplePolicyYears: boolean;
  log?: (line: string) => void;
}

export async function seed(em: EntityManager, options: SeedOptions): Promise<void> {
  if (!(await em.findOne(CounterSchema, { name: 'request' }))) {
    em.create(CounterSchema, { name: 'request', lastRequestNumber: FIRST_REQUEST_NUMBER - 1 });
  }
  if (options.devAccounts) {
    await seedDevAccounts(em);
    await seedDevelopmentInstantRules(em);
  } else {
    const present = await em.count(UserSchema, { email: { $in: [DEV_ADMIN.email, DEV_REQUESTER.email] } });
    if (present > 0) options.log?.(`WARNING: development accounts (${DEV_ADMIN.email}, ${DEV_REQUESTER.email}) exist in this database and their passwords are public: delete them or change their passwords`);
  }
  const titles = new Set((await em.find(EmailTemplateSchema, {})).map((t) => t.title));
  for (const template of [...SEED_EMAIL_TEMPLATES, ...EXTRA_EMAIL_TEMPLATES]) {
    if (!titles.has(template.title)) em.create(EmailTemplateSchema, template);
  }
  if (options.samplePolicyYears) await seedSamplePolicyYears(em, options.devAccounts);
  else {
    const samples = await findSamplePolicyYears(em);
    if (samples.length) options.log?.(`WARNING: ${samplePolicyYearsFound(samples)}`);
    else if ((await em.count(PolicyYearSchema, {})) === 0) options.log?.('No policy years on record: certificates are refused until the real ones are entered under Manage > Policies.');
  }
  if ((await em.count(FaqSchema, {})) === 0) {
    const orders = { Admin: 0, Requester: 0 };
    for (const faq of SEED_FAQS) em.create(FaqSchema, { ...faq, order: ++orders[faq.type] });
  }
  await em.flush();
}

/**
 * Development only: two instant-certificate rules to try the editor and the simulator on, switched off (as every new
 * rule starts), with the office's switch left off. Production starts with none: its rules are the office's to write.
 */
async function seedDevelopmentInstantRules(em: EntityManager): Promise<void> {
  const db = kysely(em);
  const { count } = await db.selectFrom('instant_rules').select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow();
  if (Number(count) > 0) return;
  for (const rule of DEVELOPMENT_INSTANT_RULES) {
    const { id } = await db.insertInto('instant_rules').values({
      name: rule.name, kinds: JSON.stringify(rule.kinds), conditions: JSON.stringify(rule.conditions), check_every: 10, daily_cap: 50, updated_by: 'Development seed',
    }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('instant_rule_versions').values({
      rule_id: id, version: 1, name: rule.name, kinds: JSON.stringify(rule.kinds), conditions: JSON.stringify(rule.conditions), check_every: 10, daily_cap: 50,
      saved_by: 'Development seed',
    }).execute();
  }
}

async function seedSamplePolicyYears(em: EntityManager, devAccounts: boolean): Promise<void> {
  const policyYears = await em.find(PolicyYearSchema, {});
  if (policyYears.length === 0) {
    for (const year of seedPolicyYears()) em.create(PolicyYearSchema, year);
  } else if (devAccounts) {
    // A development database from an earlier day: add the sample years it lacks (never one that overlaps a year
    // someone entered), so the current and next policy years exist.
    const overlaps = (y: { startDate: Date; endDate: Date }) => policyYears.some((p) => p.startDate <= y.endDate && p.endDate >= y.startDate);
    for (const year of seedPolicyYears()) if (!overlaps(year)) em.create(PolicyYearSchema, year);
  }
}

async function seedDevAccounts(em: EntityManager): Promise<void> {
  if (!(await em.findOne(AdminSchema, { email: DEV_ADMIN.email }))) {
    em.create(AdminSchema, { email: DEV_ADMIN.email, firstName: DEV_ADMIN.firstName, lastName: DEV_ADMIN.lastName });
  }
  if (!(await em.findOne(UserSchema, { email: DEV_ADMIN.email }))) {
    // The development administrator signs in with a password until single sign-on lands.
    em.create(UserSchema, {
      email: DEV_ADMIN.email, firstName: DEV_ADMIN.firstName, lastName: DEV_ADMIN.lastName, affiliation: PRODUCT_NAME,
      personType: 'Employee', isExternal: false, passwordHash: DEV_ADMIN.passwordHash, emailConfirmedAt: new Date(),
    });
  }
  if (!(await em.findOne(UserSchema, { email: DEV_REQUESTER.email }))) {
    em.create(UserSchema, {
      email: DEV_REQUESTER.email, firstName: DEV_REQUESTER.firstName, lastName: DEV_REQUESTER.lastName,
      company: DEV_REQUESTER.company, phone: DEV_REQUESTER.phone, affiliation: 'external', isExternal: true,
      passwordHash: DEV_REQUESTER.passwordHash, pswdResetAt: new Date(), emailConfirmedAt: new Date(),
    });
  }
  const staff = DEV_INTERNAL_REQUESTER;
  if (!(await em.findOne(UserSchema, { email: staff.email }))) {
    // An internal requester (Employee): single sign-on, or a password in development.
    em.create(UserSchema, {
      email: staff.email, firstName: staff.firstName, lastName: staff.lastName, phone: staff.phone, affiliation: PRODUCT_NAME,
      personType: 'Employee', isExternal: false, passwordHash: staff.passwordHash, emailConfirmedAt: new Date(),
    });
  }
  if ((await em.count(PersonSchema, {})) === 0) {
    // A development directory of generated employees and students, so the person search has people to find.
    em.create(PersonSchema, {
      employeeId: staff.employeeId, email: staff.email, lastName: staff.lastName, firstName: staff.firstName,
      title: 'Program Manager', workPhone: staff.phone, employmentStatus: 'A', personType: 'Employee',
    });
    for (const person of generateDirectory()) em.create(PersonSchema, person);
  }
}
