/**
 * Bundles the workflow code into one file, as the workers load it with `workflowBundlePath`, and keeps the last bundle
 * for development: `npm start` and the test run reuse it while none of the files in it changed.
 */
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { WORKFLOW_BUNDLE_OPTIONS } from '../../worker/request-worker';

/** The bundle's code and the files it was made from (absolute paths, from its inline source map). */
async function bundle(): Promise<{ code: string; sources: string[] }> {
  // The bundler's INFO lines (webpack's report) are left out.
  const { code } = await bundleWorkflowCode({ ...WORKFLOW_BUNDLE_OPTIONS, logger: new DefaultLogger('WARN') });
  const inlineMap = /sourceMappingURL=data:application\/json;charset=utf-8;base64,([A-Za-z0-9+/=]+)\s*$/.exec(code);
  const map = inlineMap ? JSON.parse(Buffer.from(inlineMap[1], 'base64').toString('utf8')) as { sources?: string[] } : {};
  return { code, sources: (map.sources ?? []).filter((source) => path.isAbsolute(source) && existsSync(source)) };
}

/** Writes the bundle to `out`; returns its size in bytes. */
export async function buildWorkflowBundle(out: string): Promise<number> {
  const { code } = await bundle();
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, code);
  return code.length;
}

/** What a kept bundle was made from: the SDK that bundled it and the hash of every file in it. */
export interface BundleManifest {
  bundler: string;
  bundle: string;
  files: Record<string, string>;
}

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const SDK_VERSION = (JSON.parse(readFileSync(createRequire(import.meta.url).resolve('@temporalio/worker/package.json'), 'utf8')) as { version: string }).version;
/** The SDK that bundles and what it is asked to bundle: a kept bundle made otherwise is made again. */
const BUNDLER = `@temporalio/worker ${SDK_VERSION} ${JSON.stringify(WORKFLOW_BUNDLE_OPTIONS)}`;

/** True when the kept bundle is still what bundling now would make: same SDK, every file in it unchanged. */
export async function bundleIsCurrent(manifest: BundleManifest, bundler = BUNDLER): Promise<boolean> {
  if (manifest.bundler !== bundler || Object.keys(manifest.files).length === 0) return false;
  for (const [file, hash] of Object.entries(manifest.files)) {
    const bytes = await readFile(file).catch(() => null);
    if (!bytes || sha256(bytes) !== hash) return false;
  }
  return true;
}

export function workflowBundleCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'coi-portal', 'workflow-bundle');
}

/** The repository this code is in: each checkout keeps its own manifest in the shared folder. */
const CHECKOUT_ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The manifest of `root`'s kept bundle. One per checkout: a bundle names its files by absolute path, so two checkouts
 * on one machine (a developer's, and the clean clone CI tests) sharing one manifest would each find the other's stale
 * and bundle again at every start.
 */
export function workflowBundleManifestPath(dir: string, root = CHECKOUT_ROOT): string {
  return path.join(dir, `manifest-${sha256(root).slice(0, 16)}.json`);
}

/**
 * The path of a workflow bundle made from the files as they are now: the kept one when none of its files changed
 * (a file it does not contain can only matter once a file it contains imports it, and that file then changed),
 * otherwise a new one, kept for the next start. Bundles are named by their content and never rewritten, so a process
 * reading one is never disturbed by another writing the next; those older than a day are removed.
 */
export async function cachedWorkflowBundle(options: { cacheDir?: string; log?: (line: string) => void } = {}): Promise<string> {
  const dir = options.cacheDir ?? workflowBundleCacheDir();
  const manifestPath = workflowBundleManifestPath(dir);
  const kept = await readFile(manifestPath, 'utf8').then((text) => JSON.parse(text) as BundleManifest, () => null);
  if (kept && existsSync(path.join(dir, kept.bundle)) && await bundleIsCurrent(kept)) return path.join(dir, kept.bundle);

  const started = Date.now();
  const { code, sources } = await bundle();
  const files = Object.fromEntries(await Promise.all(sources.map(async (file) => [file, sha256(await readFile(file))] as const)));
  const name = `bundle-${sha256(code).slice(0, 16)}.js`;
  await mkdir(dir, { recursive: true });
  // Written under a temporary name and renamed: a reader sees a whole file or none.
  const temporary = path.join(dir, `.${name}.${process.pid}`);
  await writeFile(temporary, code);
  await rename(temporary, path.join(dir, name));
  const manifest: BundleManifest = { bundler: BUNDLER, bundle: name, files };
  await writeFile(`${manifestPath}.${process.pid}`, JSON.stringify(manifest));
  await rename(`${manifestPath}.${process.pid}`, manifestPath);
  const dayAgo = Date.now() - 86_400_000;
  for (const entry of await readdir(dir)) {
    if (!entry.startsWith('bundle-') || entry === name) continue;
    const file = path.join(dir, entry);
    const modified = (await stat(file).catch(() => null))?.mtimeMs;
    if (modified !== undefined && modified < dayAgo) await rm(file, { force: true });
  }
  options.log?.(`workflows bundled in ${((Date.now() - started) / 1000).toFixed(1)} s (kept in ${dir} for the next start)`);
  return path.join(dir, name);
}
