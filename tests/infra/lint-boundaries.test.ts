/**
 * The folder boundaries of docs/ARCHITECTURE.md are enforced by ESLint (eslint.config.js, no-restricted-imports per
 * folder and depth). These snippets are linted as if they lived at the given paths: a forbidden import must fail,
 * an allowed one must pass.
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

describe('import boundaries (ESLint)', () => {
  describe('forbidden imports fail', () => {
    it.each([
      ['domain/x.ts', "import { createOrm } from '../db/orm';\nexport const y = createOrm;\n", /domain\/ holds pure rules/],
      ['domain/x.ts', "import fs from 'node:fs';\nexport const y = fs;\n", /no Node built-in/],
      ['domain/x.ts', "import { readFile } from 'fs/promises';\nexport const y = readFile;\n", /no Node built-in/],
      ['domain/x.ts', "import { useState } from 'react';\nexport const y = useState;\n", /no React/],
      ['domain/rules/x.ts', "import { loadConfig } from '../../config/app-config';\nexport const y = loadConfig;\n", /domain\/ holds pure rules/],
      ['api/routes/x.ts', "import { createActivities } from '../../activities';\nexport const y = createActivities;\n", /api\/ never imports activities/],
      ['api/x.ts', "import { sendTemplatedEmail } from '../activities/send-templated-email';\nexport const y = sendTemplatedEmail;\n", /api\/ never imports activities/],
      ['ui/src/lib/x.ts', "import { createOrm } from '../../../db/orm';\nexport const y = createOrm;\n", /ui\/ imports only domain/],
      ['ui/src/features/requests/components/x.tsx', "import { buildApp } from '../../../../../api/app';\nexport const y = buildApp;\n", /ui\/ imports only domain/],
      ['ui/src/lib/x.ts', "import path from 'node:path';\nexport const y = path;\n", /no Node built-in/],
      ['ui/src/lib/x.ts', "import { Connection } from '@temporalio/client';\nexport const y = Connection;\n", /no server-side package/],
      ['workflows/x.ts', "import { createActivities } from '../activities';\nexport const y = createActivities;\n", /workflows\/ imports only/],
      ['workflows/x.ts', "import { RequestActivities } from '../activities/request-activities.types';\nexport const y = RequestActivities;\n", /only with `import type`/],
      ['workflows/x.ts', "import { createOrm } from '../db/orm';\nexport const y = createOrm;\n", /workflows\/ imports only/],
      ['workflows/x.ts', "import { Connection } from '@temporalio/client';\nexport const y = Connection;\n", /deterministic sandbox/],
      ['workflows/x.ts', "import fs from 'node:fs';\nexport const y = fs;\n", /deterministic sandbox/],
    ])('%s: %s', async (filePath, code, message) => {
      const errors = await boundaryErrors(filePath, code);
      expect(errors.length, `errors for ${filePath}`).toBeGreaterThan(0);
      expect(errors.join('\n')).toMatch(message);
    });
  });

  describe('allowed imports pass', () => {
    it.each([
      ['domain/x.ts', "import { setup } from 'xstate';\nimport { STATUS } from './request-status';\nexport const y = [setup, STATUS];\n"],
      ['api/routes/x.ts', "import { STATUS } from '../../domain';\nimport { createOrm } from '../../db/orm';\nimport { requestUpdates } from '../../workflows/request.messages';\nexport const y = [STATUS, createOrm, requestUpdates];\n"],
      // The UI's own api/ folders are not the server's api/.
      ['ui/src/features/requests/components/x.tsx', "import { STATUS } from '../../../../../domain';\nimport { createRequest } from '../api/create-request';\nimport { useMachine } from '@xstate/react';\nexport const y = [STATUS, createRequest, useMachine];\n"],
      ['workflows/x.ts', "import type { RequestActivities } from '../activities/request-activities.types';\nimport { proxyActivities } from '@temporalio/workflow';\nimport { SearchAttributeType } from '@temporalio/common';\nimport { STATUS } from '../domain';\nimport { letterTaskQueue } from './request.messages';\nexport type A = RequestActivities;\nexport const y = [proxyActivities, SearchAttributeType, STATUS, letterTaskQueue];\n"],
      ['activities/x.ts', "import { createOrm } from '../db/orm';\nimport fs from 'node:fs';\nexport const y = [createOrm, fs];\n"],
    ])('%s', async (filePath, code) => {
      expect(await boundaryErrors(filePath, code)).toEqual([]);
    });
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
      ['ui/src/features/requests/components/x.tsx', "import { recordToValues } from '../lib/form-values';\nimport { Alert } from '../../../components/ui/alert';\nimport { getFaqs } from '../../../lib/desk-api';\nexport const y = [recordToValues, Alert, getFaqs];\n"],
      ['ui/src/features/dashboard/x.tsx', "import { AdminDashboard } from './components/admin-dashboard';\nimport { paths } from '../../lib/paths';\nexport const y = [AdminDashboard, paths];\n"],
      // app/ wires the features together
      ['ui/src/app/routes/x.tsx', "import { LoginPage } from '../../features/auth/components/login-page';\nimport { FaqsPage } from '../../features/faqs/faqs-page';\nexport const y = [LoginPage, FaqsPage];\n"],
    ])('%s', async (filePath, code) => {
      expect(await boundaryErrors(filePath, code)).toEqual([]);
    });
  });
});
