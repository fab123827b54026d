/**
 * `npm run build`: the production build. The image runs compiled JavaScript with production dependencies only (no
 * tsx, no TypeScript at run time):
 *   1. type-check the server code (tsc -p tsconfig.build.json; esbuild does not check types)
 *   2. esbuild bundles our code (api/, contract/, activities/, temporal/, db/, config/, domain/, storage/, workflows/) into
 *        dist/server.js   ← api/server.ts          the API
 *        dist/worker.js   ← worker/worker.ts     the Temporal worker
 *        dist/migrate.js  ← scripts/migrate.ts     create + migrate + seed (reference data only in production)
 *        dist/admin.js    ← scripts/admin.ts       the admin list from the command line (an operator's first day)
 *        dist/mail-in.js  ← mail-in/main.ts  replies by email: the SMTP listener and/or the mailbox poller
 *        dist/reply-text-thread.js ← mail-in/processing/reply-text.thread.ts  the thread the worker reads replies on
 *      as ESM for Node 24, with source maps (`node --enable-source-maps`). Packages stay external: they load from
 *      node_modules at run time, so every one of them must be a production dependency (tests/infra checks it).
 *      esbuild resolves the extensionless relative imports the code base uses (moduleResolution "bundler"), which
 *      plain tsc output could not run on Node's ESM loader.
 *   3. the migrations, one file each, to dist/migrations/*.js: MikroORM finds them by glob next to the bundle
 *      (db/orm.ts: MIGRATIONS_PATH = new URL('./migrations', import.meta.url) → dist/migrations)
 *   4. the workflow bundle dist/workflow-bundle.js (devtools/temporal/build-workflow-bundle.ts), for WORKFLOW_BUNDLE_PATH
 * dist/ sits one folder below the repository root, like config/ and db/, so every path the code derives from
 * import.meta.url (the repository root, ui/dist for the UI, the migrations) stays right. The UI is built separately
 * (`npm run build:ui` → ui/dist).
 *
 *   tsx scripts/build.ts [--out dist] [--no-typecheck] [--no-workflow-bundle]
 */
import { build, stop as stopEsbuild, type Metafile } from 'esbuild';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Entry points of the production processes: output name → source. */
export const PRODUCTION_ENTRIES = {
  server: 'api/server.ts',
  worker: 'worker/worker.ts',
  migrate: 'scripts/migrate.ts',
  admin: 'scripts/admin.ts',
  'mail-in': 'mail-in/main.ts',
  // not a process: the thread the worker reads replies' text on (mail-in/processing/reply-text-reader.ts finds it here)
  'reply-text-thread': 'mail-in/processing/reply-text.thread.ts',
} as const;

export interface BuildOptions {
  /** Output directory, relative to the repository root or absolute; must be one level below the root. */
  outDir?: string;
  typecheck?: boolean;
  workflowBundle?: boolean;
  log?: (line: string) => void;
}

export interface BuildResult {
  outDir: string;
  /** Bare package names the bundles import at run time (node built-ins excluded). */
  externalPackages: string[];
  /** The same, per bundle (`server`, `worker`, `migrate`): the API must not load the worker's packages. */
  externalPackagesOf: Record<string, string[]>;
  files: string[];
}

const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function externals(metafile: Metafile, only?: string): string[] {
  const names = new Set<string>();
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (only && path.basename(file) !== `${only}.js`) continue;
    for (const imported of output.imports) {
      if (!imported.external || NODE_BUILTINS.has(imported.path) || imported.path.startsWith('.')) continue;
      names.add(packageName(imported.path));
    }
  }
  return [...names].sort();
}

/** Runs a Node child; its output (webpack's chatter, tsc's errors) is shown only when it fails. */
function run(args: string[], label: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => { output += chunk; });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => { output += chunk; });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${label} failed (${signal ?? `exit code ${code}`}):\n${output.trimEnd()}`));
    });
  });
}

const listFiles = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));

export async function buildProduction(options: BuildOptions = {}): Promise<BuildResult> {
  const log = options.log ?? ((line: string) => console.log(`[build] ${line}`));
  const outDir = path.resolve(root, options.outDir ?? 'dist');
  if (path.dirname(outDir) !== path.resolve(root)) {
    throw new Error(`the output directory must be one level below the repository root (paths derive from import.meta.url): ${outDir}`);
  }
  const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

  if (options.typecheck ?? true) {
    const started = Date.now();
    log('type-checking the server code (tsc -p tsconfig.build.json)…');
    await run([path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], 'tsc');
    log(`types OK in ${seconds(started)}`);
  }

  let started = Date.now();
  fs.rmSync(outDir, { recursive: true, force: true });
  const bundled = await build({
    absWorkingDir: root,
    entryPoints: PRODUCTION_ENTRIES,
    outdir: outDir,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node24',
    sourcemap: true,
    tsconfig: 'tsconfig.build.json',
    metafile: true,
    logLevel: 'warning',
  });
  const migrationsDir = path.join(root, 'db', 'migrations');
  await build({
    absWorkingDir: root,
    entryPoints: fs.readdirSync(migrationsDir).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).map((f) => path.join(migrationsDir, f)),
    outdir: path.join(outDir, 'migrations'),
    bundle: false,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    tsconfig: 'tsconfig.build.json',
    logLevel: 'warning',
  });
  // The bundles are ESM whatever package.json says.
  fs.writeFileSync(path.join(outDir, 'package.json'), '{ "type": "module" }\n');
  const externalPackages = externals(bundled.metafile);
  const externalPackagesOf = Object.fromEntries(Object.keys(PRODUCTION_ENTRIES).map((name) => [name, externals(bundled.metafile, name)]));
  log(`bundled ${Object.keys(PRODUCTION_ENTRIES).map((name) => `${path.relative(root, outDir)}/${name}.js`).join(', ')} and the migrations in ${seconds(started)}`);

  if (options.workflowBundle ?? true) {
    started = Date.now();
    const out = path.join(outDir, 'workflow-bundle.js');
    log('bundling the workflows (devtools/temporal/build-workflow-bundle.ts)…');
    await run(['--import', 'tsx', 'devtools/temporal/build-workflow-bundle.ts', out], 'the workflow bundle');
    log(`workflow bundle built in ${seconds(started)}`);
  }

  return { outDir, externalPackages, externalPackagesOf, files: listFiles(outDir).map((f) => path.relative(outDir, f)).sort() };
}

/** One more module bundled as the entries are (packages external), e.g. a bench's probe preloaded into dist/server.js. */
export async function bundleModule(entry: string, outfile: string): Promise<void> {
  await build({
    absWorkingDir: root, entryPoints: [entry], outfile, bundle: true, packages: 'external', platform: 'node', format: 'esm',
    target: 'node24', tsconfig: 'tsconfig.build.json', logLevel: 'warning',
  });
}

/**
 * Ends esbuild's service process (kept running after a build for the next one): a bench done building stops it, so
 * that nothing of its build is left running beside what it measures. The next build starts it again.
 */
export async function stopBundler(): Promise<void> {
  await stopEsbuild();
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf('--out');
  const started = Date.now();
  buildProduction({
    outDir: outIndex >= 0 ? args[outIndex + 1] : undefined,
    typecheck: !args.includes('--no-typecheck'),
    workflowBundle: !args.includes('--no-workflow-bundle'),
  }).then(
    (result) => {
      console.log(`[build] ${path.relative(root, result.outDir)}/ ready in ${((Date.now() - started) / 1000).toFixed(1)} s; run-time packages: ${result.externalPackages.join(', ')}`);
    },
    (error: Error) => {
      console.error(`[build] FAILED: ${error.message}`);
      process.exit(1);
    },
  );
}
