/**
 * The folder boundaries of docs/ARCHITECTURE.md are enforced by ESLint (eslint.config.js: LAYERS, generated into
 * no-restricted-imports per folder and depth). These snippets are linted as if they lived at the given paths: for
 * every folder's rule, a forbidden import (value and `import type`) must fail and the allowed ones must pass.
 */
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The no-restricted-imports messages ESLint gives `code` placed at `filePath` (other rules ignored). */
async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  const fatal = result.messages.filter((m) => m.fatal);
  expect(fatal, 'the snippet must parse').toEqual([]);
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports' && m.severity === 2).map((m) => m.message);
}

/** `import { a } from '<spec>'` (or `import type`), a snippet that uses it. */
const importOf = (spec: string, type = false) => `import ${type ? 'type ' : ''}{ a } from '${spec}';\nexport ${type ? 'type B = a' : 'const b = a'};\n`;

/**
 * One row per folder rule of eslint.config.js (LAYERS): a file at `file`, imports that must fail (with the message
 * that names the rule) and imports that must pass. Depths vary, so the generated per-depth rules are exercised too.
 */
const LAYER_CASES: { file: string; forbidden: [string, RegExp][]; allowed: string[] }[] = [
  {
    file: 'domain/x.ts',
    forbidden: [['../db/orm', /domain\/ may import only domain\/ of our folders/], ['node:fs', /domain\/ may import only these packages: xstate, ajv, ajv-errors\./],
      ['fs/promises', /only these packages/], ['react', /only these packages/], ['pg', /only these packages/]],
    allowed: ['xstate', 'ajv', './request-status'],
  },
  {
    file: 'domain/rules/x.ts',
    forbidden: [['../../config/app-config', /domain\/ may import only/]],
    allowed: ['../request-status', '../../domain/limits'],
  },
  {
    file: 'config/x.ts',
    forbidden: [['../db/orm', /config\/ may import only config\/, domain of our folders/], ['pg', /config\/ may import only these packages: Node built-ins/]],
    allowed: ['../domain/abuse-limits', 'node:path'],
  },
  {
    file: 'storage/x.ts',
    forbidden: [['../domain', /storage\/ may import only storage\/ of our folders/], ['pg', /storage\/ may import only these packages/]],
    allowed: ['node:fs/promises'],
  },
  {
    file: 'contract/x.ts',
    forbidden: [['../api/errors', /contract\/ may import only contract\/, domain of our folders/], ['fastify', /contract\/ may import only these packages: typebox\./],
      ['node:path', /contract\/ may import only these packages/]],
    allowed: ['typebox', '../domain', './primitives'],
  },
  {
    file: 'db/entities/x.ts',
    forbidden: [['../../api/auth/known-device', /db\/ may import only db\/, domain, config/], ['../../activities/mailer', /db\/ may import only/],
      ['../../services/limits/turns', /db\/ may import only/], ['argon2', /db\/ may import only these packages/], ['fastify', /db\/ may import only these packages/]],
    allowed: ['../../domain/limits', '../../config/app-config', '../kysely', '@mikro-orm/core', 'kysely', 'node:crypto'],
  },
  {
    file: 'workflows/x.ts',
    forbidden: [['../activities', /workflows\/ may import only workflows\/, domain of our folders/], ['../db/orm', /workflows\/ may import only/],
      ['../services/discussions/discussions', /workflows\/ may import only/],
      ['@temporalio/client', /deterministic sandbox/], ['node:fs', /workflows\/ may import only these packages: @temporalio\/workflow, @temporalio\/common, async-mutex\./]],
    allowed: ['@temporalio/workflow', '@temporalio/common', 'async-mutex', '../domain', './request.messages', './request-activities.types'],
  },
  {
    file: 'workflows/request/x.ts',
    forbidden: [['../../activities/effects/record-status', /workflows\/ may import only/]],
    allowed: ['../request-activities.types', '../../domain'],
  },
  {
    file: 'activities/wake-ups/x.ts',
    forbidden: [['../../temporal/connection', /activities\/ may import only activities\/, domain, config, db, storage, workflows, services of our folders/],
      ['../../api/command-context', /activities\/ may import only/], ['../../mail-in/intake', /activities\/ may import only/],
      ['fastify', /activities\/ may import only these packages/]],
    allowed: ['../../db/entities', '../../services/requests/request-workflow-client', '../../workflows/wake-up-activities.types', '../../storage/document-files',
      '../../config/app-config', '@temporalio/activity', '@temporalio/client', 'nodemailer', 'node:fs'],
  },
  {
    file: 'services/requests/x.ts',
    forbidden: [['../../api/errors', /services\/ may import only services\/, domain, contract, config, db, storage, workflows\/\*\.messages/],
      ['../../mail-in/intake', /services\/ holds the use cases every door calls/], ['../../activities/effects/send-email', /services\/ may import only/],
      ['../../worker/request-worker', /services\/ may import only/], ['../../workflows/request.workflow', /services\/ may import only/],
      ['fastify', /services\/ may import only these packages/], ['nodemailer', /services\/ may import only these packages/]],
    allowed: ['../../db/entities', '../../domain', '../../contract/request.schema', '../../workflows/request.messages', '../refusals', '../context',
      '@temporalio/client', 'kysely', 'node:crypto'],
  },
  {
    file: 'mail-in/processing/x.ts',
    forbidden: [['../../api/app', /mail-in\/ may import only mail-in\/, domain, config, db, storage, workflows, services/],
      ['../../worker/request-worker', /mail-in\/ is the door for replies by email/], ['../../activities/effects/send-email', /mail-in\/ may import only/],
      ['fastify', /mail-in\/ may import only these packages/]],
    allowed: ['../../services/discussions/discussions', '../../db/entities', '../../workflows/inbound-mail.messages', '../../temporal/connection',
      '../reply-text', 'mailparser', 'smtp-server', 'imapflow', 'piscina', '@temporalio/activity'],
  },
  {
    file: 'api/routes/x.ts',
    forbidden: [['../../activities', /api\/ may import only api\/, domain, contract, config, db, storage, services, workflows\/\*\.messages/],
      ['../../worker/request-worker', /api\/ is the HTTP door/], ['../../workflows/request.workflow', /api\/ may import only/],
      ['../../mail-in/intake', /api\/ may import only/], ['nodemailer', /api\/ may import only these packages/]],
    allowed: ['../../domain', '../../contract/request.schema', '../../db/orm', '../../workflows/request.messages', '../../temporal/connection',
      '../../services/requests/request-commands', '../command-context', 'fastify', '@fastify/multipart', 'typebox', 'node:crypto'],
  },
  {
    file: 'api/x.ts',
    forbidden: [['../activities/effects/send-email', /api\/ may import only/]],
    allowed: ['../workflows/log-header', '../temporal/metrics-server'],
  },
  {
    file: 'temporal/x.ts',
    forbidden: [['../api/app', /temporal\/ may import only temporal\/, domain, config, workflows\/log-header of our folders/],
      ['../activities', /temporal\/ is the Temporal client's wiring every process shares/], ['../mail-in/intake', /temporal\/ may import only/],
      ['../worker/request-worker', /temporal\/ may import only/], ['../db/orm', /temporal\/ may import only/],
      ['@temporalio/worker', /temporal\/ may import only these packages/], ['fastify', /temporal\/ may import only these packages/]],
    allowed: ['../workflows/log-header', './command-context', '@temporalio/client', 'prom-client', 'node:net'],
  },
  {
    file: 'worker/x.ts',
    forbidden: [['../api/app', /worker\/ may import only worker\/, domain, config, db, storage, workflows, activities, mail-in\/processing, temporal of our folders/],
      ['../services/requests/request-workflow-client', /worker\/ wires the worker process/], ['../mail-in/intake', /worker\/ may import only/],
      ['fastify', /worker\/ may import only these packages/], ['smtp-server', /worker\/ may import only these packages/]],
    allowed: ['../activities', '../mail-in/processing', '../workflows/request.messages', '../db/orm', '../temporal/connection', '@temporalio/worker', 'node:url'],
  },
  {
    file: 'devtools/dev-idp/x.ts',
    forbidden: [['../../scripts/build', /devtools\/ may import only devtools\/, domain, contract, config, db, storage, workflows, activities, temporal, worker, services, mail-in, api of our/],
      ['../../bench/worker-process', /devtools\/ may import only/], ['../../tests/support/api-helpers', /devtools\/ may import only/],
      ['../../ui/src/lib/paths', /devtools\/ may import only/], ['vitest', /devtools\/ may import only these packages/]],
    allowed: ['../../services/accounts/password-hash', '../../mail-in/smtp-listener', '../../api/auth/saml/service-provider', '../../api/app', '../../worker/request-worker', '../supervise',
      '@temporalio/client', 'smtp-server', 'node:http'],
  },
  {
    file: 'scripts/x.ts',
    forbidden: [['../bench/request-flow.bench', /scripts\/ may import only/], ['../tests/support/api-helpers', /scripts\/ may import only/],
      ['vitest', /scripts\/ may import only these packages: esbuild, eslint, Node built-ins/]],
    allowed: ['../devtools/supervise', '../services/desk/security-log', '../devtools/temporal/dev-server', 'esbuild', 'node:child_process'],
  },
  {
    file: 'bench/chaos/x.ts',
    forbidden: [['../../tests/support/api-helpers', /bench\/ may import only/], ['../../ui/src/main', /bench\/ may import only/],
      ['vitest', /bench\/ may import only these packages/]],
    allowed: ['../../scripts/build', '../../ui/initial-js', '../../devtools/smtp-sink', '../../worker/request-worker', 'autocannon', '@temporalio/client'],
  },
];

describe('import boundaries (ESLint)', () => {
  describe.each(LAYER_CASES)('$file', ({ file, forbidden, allowed }) => {
    it.each(forbidden)('refuses %s', async (spec, message) => {
      for (const type of [false, true]) {
        const errors = await boundaryErrors(file, importOf(spec, type));
        expect(errors.length, `errors for ${spec} in ${file}${type ? ' (import type)' : ''}`).toBeGreaterThan(0);
        expect(errors.join('\n')).toMatch(message);
      }
    });

    it('allows ' + allowed.join(', '), async () => {
      for (const spec of allowed) expect(await boundaryErrors(file, importOf(spec)), `${spec} in ${file}`).toEqual([]);
    });
  });

  // The UI's rule (eslint.config.js, ui/src).
  describe('ui/src: forbidden imports fail', () => {
    it.each([
      ['ui/src/lib/x.ts', "import { createOrm } from '../../../db/orm';\nexport const y = createOrm;\n", /ui\/ imports only domain/],
      ['ui/src/features/requests/components/x.tsx', "import { buildApp } from '../../../../../api/app';\nexport const y = buildApp;\n", /ui\/ imports only domain/],
      ['ui/src/lib/x.ts', "import path from 'node:path';\nexport const y = path;\n", /no Node built-in/],
      ['ui/src/lib/x.ts', "import { Connection } from '@temporalio/client';\nexport const y = Connection;\n", /no server-side package/],
    ])('%s: %s', async (filePath, code, message) => {
      const errors = await boundaryErrors(filePath, code);
      expect(errors.length, `errors for ${filePath}`).toBeGreaterThan(0);
      expect(errors.join('\n')).toMatch(message);
    });
  });

  describe('ui/src: allowed imports pass', () => {
    it.each([
      // The UI's own api/ folders are not the server's api/.
      ['ui/src/features/requests/components/x.tsx', "import { STATUS } from '../../../../../domain';\nimport { createRequest } from '../api/create-request';\nimport { useMachine } from '@xstate/react';\nexport const y = [STATUS, createRequest, useMachine];\n"],
    ])('%s', async (filePath, code) => {
      expect(await boundaryErrors(filePath, code)).toEqual([]);
    });
  });

  it('tests/ may import anything', async () => {
    const code = "import { createActivities } from '../../activities';\nimport { buildApp } from '../../api/app';\nexport const y = [createActivities, buildApp];\n";
    expect(await boundaryErrors('tests/api/x.test.ts', code)).toEqual([]);
  });
});

describe('UI boundaries (ESLint): contract types, a package allow-list, features side by side', () => {
  describe('forbidden imports fail', () => {
    it.each([
      // contract/ only as types: its schemas are typebox code that must stay out of the browser bundle
      ['ui/src/lib/x.ts', "import { RequestRecord } from '../../../contract/request.schema';\nexport const y = RequestRecord;\n", /only with `import type`/],
      ['ui/src/features/requests/api/x.ts', "import { Wire } from '../../../../../contract/wire';\nexport const y: Wire<never> = null as never;\n", /only with `import type`/],
      // packages: an allow-list, not a deny-list
      ['ui/src/lib/x.ts', "import { Type } from 'typebox';\nexport const y = Type;\n", /UI_PACKAGES/],
      ['ui/src/components/x.tsx', "import dayjs from 'dayjs';\nexport const y = dayjs;\n", /UI_PACKAGES/],
      ['ui/src/features/dashboard/components/x.tsx', "import { z } from 'zod';\nexport const y = z;\n", /UI_PACKAGES/],
      // one feature never imports another: from the feature's root and from deeper folders, both ways of climbing
      ['ui/src/features/search/x.tsx', "import { getFaqs } from '../faqs/faqs-page';\nexport const y = getFaqs;\n", /imports no other feature/],
      ['ui/src/features/requests/components/x.tsx', "import { AdminDashboard } from '../../dashboard/components/admin-dashboard';\nexport const y = AdminDashboard;\n", /imports no other feature/],
      ['ui/src/features/requests/components/x.tsx', "import { AdminDashboard } from '../../../features/dashboard/components/admin-dashboard';\nexport const y = AdminDashboard;\n", /imports no other feature/],
      ['ui/src/features/admin/api/x.ts', "import type { Faq } from '../../manage/use-editor';\nexport type Y = Faq;\n", /imports no other feature/],
      // shared code sits below the features
      ['ui/src/types/x.ts', "import type { Claim } from '../features/claims/claim-history-section';\nexport type Y = Claim;\n", /below the features/],
      ['ui/src/components/ui/x.tsx', "import { LoginPage } from '../../features/auth/components/login-page';\nexport const y = LoginPage;\n", /below the features/],
    ])('%s: %s', async (filePath, code, message) => {
      const errors = await boundaryErrors(filePath, code);
      expect(errors.length, `errors for ${filePath}`).toBeGreaterThan(0);
      expect(errors.join('\n')).toMatch(message);
    });
  });

  describe('allowed imports pass', () => {
    it.each([
      ['ui/src/types/x.ts', "import type { RequestRecord } from '../../../contract/request.schema';\nimport type { Wire } from '../../../contract/wire';\nexport type Y = Wire<typeof RequestRecord>;\n"],
      ['ui/src/features/requests/api/x.ts', "import type { UploadResult } from '../../../../../contract/document.schema';\nimport { api } from '../../../lib/api-client';\nexport type Y = typeof UploadResult;\nexport const y = api;\n"],
      ['ui/src/lib/x.ts', "import { useQuery } from '@tanstack/react-query';\nimport { createRoot } from 'react-dom/client';\nimport { setup } from 'xstate';\nimport { useNavigate } from 'react-router-dom';\nexport const y = [useQuery, createRoot, setup, useNavigate];\n"],
      ['ui/src/features/registration/components/x.tsx', "import 'altcha';\nimport { useActorRef } from '@xstate/react';\nexport const y = useActorRef;\n"],
      // inside one feature, and down into the shared folders
      ['ui/src/features/requests/components/x.tsx', "import { recordToValues } from '../lib/form-values';\nimport { Alert } from '../../../components/ui/alert';\nimport { queryKeys } from '../../../lib/query-keys';\nexport const y = [recordToValues, Alert, queryKeys];\n"],
      ['ui/src/features/dashboard/x.tsx', "import { AdminDashboard } from './components/admin-dashboard';\nimport { paths } from '../../lib/paths';\nexport const y = [AdminDashboard, paths];\n"],
      // app/ wires the features together
      ['ui/src/app/routes/x.tsx', "import { LoginPage } from '../../features/auth/components/login-page';\nimport { FaqsPage } from '../../features/faqs/faqs-page';\nexport const y = [LoginPage, FaqsPage];\n"],
    ])('%s', async (filePath, code) => {
      expect(await boundaryErrors(filePath, code)).toEqual([]);
    });
  });
});

describe('typed writes', () => {
  const syntaxErrors = async (code: string) => {
    const [result] = await eslint.lintText(code, { filePath: 'services/requests/x.ts' });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  };

  it('refuses `as never` in the data of an entity write, wherever it sits in the arguments', async () => {
    for (const code of [
      'declare const em: any; declare const E: any; em.create(E, { a: 1 } as never);\n',
      'declare const em: any; declare const E: any; em.insert(E, { a: { b: 1 } as never });\n',
      'declare const em: any; declare const E: any; em.nativeUpdate(E, { id: 1 }, { a: 1 as never });\n',
    ]) expect(await syntaxErrors(code), code).toEqual([expect.stringMatching(/No `as never` in an entity write/)]);
  });

  it('lets typed writes and `as never` elsewhere pass', async () => {
    expect(await syntaxErrors('declare const em: any; declare const E: any; em.create(E, { a: 1 });\n')).toEqual([]);
    expect(await syntaxErrors('declare const f: any; f(1 as never);\n')).toEqual([]);
  });
});

/** The no-restricted-syntax messages ESLint gives `code` placed at `filePath`. */
async function syntaxErrorsAt(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  expect(result.messages.filter((m) => m.fatal), 'the snippet must parse').toEqual([]);
  return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

describe('audit kinds from domain/audit-kinds.ts', () => {
  const AUDIT_KIND = /Take the audit kind from domain\/audit-kinds\.ts/;

  it.each([
    ['activities/effects/x.ts', "declare const em: any; declare const E: any; em.create(E, { requestId: 1, activityType: 'Email' });\n"],
    ['services/desk/x.ts', "import { sql } from 'kysely';\nexport const q = sql`select count(*) filter (where a.\"activity_type\" = 'Reminder') from request_activity a`;\n"],
    ['services/desk/x.ts', "export const q = `select 1 from request_activity where activity_type in ('Submission', 'Status Change')`;\n"],
    ['mail-in/x.ts', "export const failed = (a: { activityType: string }) => a.activityType === 'Email Failed';\n"],
    ['ui/src/features/admin/lib/x.ts', "export const failed = (a: { activityType: string }) => 'Email Failed' !== a.activityType;\n"],
    ['workflows/x.ts', "export const record = { activityType: 'Reminder', activityText: 'Reminder 1 sent' };\n"],
  ])('refuses a kind written as a string: %s', async (filePath, code) => {
    expect(await syntaxErrorsAt(filePath, code), code).toEqual([expect.stringMatching(AUDIT_KIND)]);
  });

  it.each([
    ['activities/effects/x.ts', "import { EMAIL_ACTIVITY } from '../../domain';\ndeclare const em: any; declare const E: any; em.create(E, { requestId: 1, activityType: EMAIL_ACTIVITY });\n"],
    ['services/desk/x.ts', "import { sql } from 'kysely';\nimport { REMINDER_ACTIVITY } from '../../domain';\nexport const q = sql`select count(*) filter (where a.\"activity_type\" = ${REMINDER_ACTIVITY}) from request_activity a`;\n"],
    // tests assert the words people read; migrations keep the words they were written with
    ['tests/api/x.test.ts', "export const row = { activityType: 'Email Failed' };\n"],
    ['db/migrations/x.ts', "export const q = `update request_activity set clock = 'escalation' where activity_type = 'Escalation'`;\n"],
  ])('lets the constant, tests and migrations pass: %s', async (filePath, code) => {
    expect(await syntaxErrorsAt(filePath, code), code).toEqual([]);
  });
});

describe('typed SQL: no statement text with positional `$1…$n` values', () => {
  const NUMBERED = /not statement text with positional `\$1…\$n` values/;

  it.each([
    ['db/x.ts', "import pg from 'pg';\ndeclare const client: pg.Client;\nexport const found = (role: string) => client.query('select 1 from pg_roles where rolname = $1', [role]);\n"],
    ['services/desk/x.ts', "declare const client: { query(text: string, values: unknown[]): unknown };\nexport const mark = (id: number) => client.query(`update claims_data set updated_at = now() where id = $1`, [id]);\n"],
    ['services/desk/x.ts', "export const merge = (fields: string) => `insert into request_activity (activity_type) select $2 from ${fields}`;\n"],
    ['mail-in/x.ts', "declare const client: { query(config: { text: string; values: unknown[] }): unknown };\nexport const q = (id: number) => client.query({ text: 'select id from inbound_messages where id = $1', values: [id] });\n"],
  ])('refuses it: %s', async (filePath, code) => {
    const errors = await syntaxErrorsAt(filePath, code);
    expect(errors.length, code).toBeGreaterThan(0);
    expect(errors.every((e) => NUMBERED.test(e)), errors.join('\n')).toBe(true);
  });

  it.each([
    ['db/x.ts', "import { sql } from 'kysely';\nimport pg from 'pg';\nimport { queryOn } from './kysely';\ndeclare const client: pg.Client;\nexport const found = (role: string) => queryOn(client, sql`select 1 from pg_roles where rolname = ${role}`);\n"],
    ['services/desk/x.ts', "declare const client: { query(text: string): unknown };\nexport const lock = () => client.query('lock table claims_data in share row exclusive mode');\n"],
    // dollars that are no placeholder in SQL: a regex replacement, a password hash, an amount of money
    ['api/x.ts', "export const kebab = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();\n"],
    ['db/x.ts', "export const hash = '$argon2id$v=19$m=19456,p=1,t=2$dNU7oYG6i+F4k/MwB16NYw$3GfeRfW2VFn7jDTIkECMVw';\n"],
    ['services/x.ts', "export const note = 'It costs $5.00 where you select it';\n"],
  ])('lets the sql template and other dollars pass: %s', async (filePath, code) => {
    expect(await syntaxErrorsAt(filePath, code), code).toEqual([]);
  });
});

describe('the request workflows\' one client', () => {
  const syntaxErrors = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  };
  const update = 'declare const client: any; await client.workflow.executeUpdateWithStart({}, {});\n';

  it('refuses an update or a signal sent to a workflow from any door or use case but the client', async () => {
    for (const filePath of ['mail-in/processing/x.ts', 'activities/wake-ups/x.ts', 'api/routes/x.ts', 'services/discussions/x.ts']) {
      expect(await syntaxErrors(filePath, update), filePath).toEqual([expect.stringMatching(/through services\/requests\/request-workflow-client\.ts/)]);
    }
    expect(await syntaxErrors('api/routes/x.ts', 'declare const h: any; await h.executeUpdate({}, {});\n')).toHaveLength(1);
    expect(await syntaxErrors('services/requests/x.ts', 'declare const h: any; await h.signal({});\n')).toHaveLength(1);
  });

  it('lets the client send them', async () => {
    expect(await syntaxErrors('services/requests/request-workflow-client.ts', update)).toEqual([]);
  });
});
