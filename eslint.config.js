/**
 * ESLint (flat config): typescript-eslint's recommended rules (syntax only, no type information, so `npm run lint`
 * stays fast), the React hooks rules for the UI, and the folder boundaries of docs/ARCHITECTURE.md enforced with
 * `no-restricted-imports`. `npm test` runs this first (scripts/run-tests.ts); tests/infra/lint-boundaries.test.ts
 * proves that a forbidden import fails.
 *
 * Boundaries. The code base imports with relative paths, and `no-restricted-imports` matches the import string, not
 * the resolved file. So each rule is generated per directory depth: a file N folders below the repository root
 * reaches the root with exactly N `../`, and a pattern `^(../){N}db(/|$)` means "the db/ folder at the root"
 * whatever the depth of the file (ui/src/features/requests/api/ is the UI's own folder, not the server's api/).
 *   domain/     its own files and I/O-free packages only: no other folder of ours, no Node built-in, no React
 *   ui/src/     its own files, domain/, and contract/ as `import type` only (the API's schemas type its calls; no
 *               schema code in the bundle); packages from UI_PACKAGES only (an allow-list). Features are side by
 *               side: ui/src/features/<x>/ never imports ui/src/features/<y>/, and the shared code below them
 *               (lib, components, types) imports no feature; only app/ (routes, layout) wires features together.
 *   workflows/  its own files (request.messages, search-attributes, …), domain/, @temporalio/workflow and
 *               @temporalio/common (a data-converter and search-attribute library that the workflow bundler accepts:
 *               workflows/search-attributes.ts needs it); activities only as `import type` of activities/*.types
 *   api/        never activities/ (the API asks the workflow; only the worker runs activities)
 */
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const SOURCE = '{ts,tsx,js,mjs,cjs}';
/** Deepest folder level (below the boundary folder) the generated rules cover; the tree is far shallower. */
const MAX_DEPTH = 8;

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const NODE_BUILTINS = `^(?:node:|(?:${[...new Set(builtinModules.map((m) => m.split('/')[0]))].map(escape).join('|')})(?:/|$))`;
const REACT = '^(?:react|react-dom|@xstate/react|react-router|react-router-dom)(?:/|$)';
/** The packages the browser code may import (and their subpaths); anything else fails the lint. */
const UI_PACKAGES = ['react', 'react-dom', 'react-router-dom', 'xstate', '@xstate/react', '@tanstack/react-query', 'altcha'];
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
    ignores: ['node_modules/', 'dist/', 'dist-test-*/', 'ui/dist/', 'data/', 'test-results/', 'bench/results/', 'coverage/'],
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
    },
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

  ...boundary('domain', (root) => [
    { regex: root, message: 'domain/ holds pure rules: it imports only its own files (not api, db, activities, workflows, temporal, ui, config, storage, devtools, scripts).' },
    { regex: NODE_BUILTINS, message: 'domain/ is shared with the UI and the workflow sandbox: no Node built-in modules.' },
    { regex: REACT, message: 'domain/ is shared with the server and the workflows: no React.' },
  ]),

  ...uiBoundary('ui/src'),
  ...['ui/src/lib', 'ui/src/components', 'ui/src/types'].flatMap((folder) => uiBoundary(folder, anyFeature)),
  ...UI_FEATURES.flatMap((feature) => uiBoundary(`ui/src/features/${feature}`, (extra) => otherFeature(feature, extra))),

  ...boundary('workflows', (root) => [
    { regex: `${root}(?!domain(?:/|$)|activities/[^/]+\\.types$)`, message: 'workflows/ imports only its own files and domain/ (activities: `import type` from activities/*.types).' },
    { regex: `${root}activities/[^/]+\\.types$`, allowTypeImports: true, message: 'workflows/ may import activities/*.types only with `import type` (the workflow sandbox must not load activity code).' },
    { regex: '^(?![./])(?!@temporalio/(?:workflow|common)(?:/|$))', message: 'workflows/ runs in the deterministic sandbox: packages other than @temporalio/workflow and @temporalio/common are not allowed.' },
  ]),

  ...boundary('api', (root) => [
    { regex: `${root}activities(?:/|$)`, message: 'api/ never imports activities/: status changes go through the workflow (api/services/request-workflows.ts).' },
  ]),
);
