/**
 * The kept workflow bundle (devtools/temporal/workflow-bundle.ts): `npm start` and the test run reuse it while every
 * file in it is unchanged, and bundle again when one changed or the SDK did; each checkout on the machine keeps its own.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  bundleIsCurrent, cachedWorkflowBundle, workflowBundleCacheDir, workflowBundleManifestPath, type BundleManifest,
} from '../../devtools/temporal/workflow-bundle';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const dirs: string[] = [];
afterAll(async () => { await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))); });

describe('the kept workflow bundle', () => {
  it('is the one the run loads, and asking again does not bundle again, whatever another checkout keeps beside it', async () => {
    // Another checkout of the repository on this machine keeps its own bundle in the same folder.
    const other = workflowBundleManifestPath(workflowBundleCacheDir(), '/elsewhere/coi-portal');
    expect(other).not.toBe(workflowBundleManifestPath(workflowBundleCacheDir()));
    await writeFile(other, JSON.stringify({ bundler: 'another', bundle: 'bundle-elsewhere.js', files: {} } satisfies BundleManifest));
    dirs.push(other);
    const lines: string[] = [];
    const again = await cachedWorkflowBundle({ log: (line) => lines.push(line) });
    expect(again).toBe(inject('workflowBundlePath'));
    expect(path.dirname(again)).toBe(workflowBundleCacheDir());
    expect(lines).toEqual([]);
  });

  it('is stale once a file in it changed, went away, or another SDK would bundle it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'coi-bundle-cache-'));
    dirs.push(dir);
    const file = path.join(dir, 'request.workflow.ts');
    await writeFile(file, 'export const a = 1;\n');
    const manifest: BundleManifest = { bundler: 'sdk 1', bundle: 'bundle-x.js', files: { [file]: sha256('export const a = 1;\n') } };
    expect(await bundleIsCurrent(manifest, 'sdk 1')).toBe(true);
    expect(await bundleIsCurrent(manifest, 'sdk 2')).toBe(false);
    await writeFile(file, 'export const a = 2;\n');
    expect(await bundleIsCurrent(manifest, 'sdk 1')).toBe(false);
    await rm(file);
    expect(await bundleIsCurrent(manifest, 'sdk 1')).toBe(false);
    expect(await bundleIsCurrent({ ...manifest, files: {} }, 'sdk 1')).toBe(false);
  });
});
