/** Bundles the workflow code into one file, as the workers load it with `workflowBundlePath`. */
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { WORKFLOW_BUNDLE_OPTIONS } from '../../temporal/request-worker';

/** Writes the bundle to `out`; returns its size in bytes. The bundler's INFO lines (webpack's report) are left out. */
export async function buildWorkflowBundle(out: string): Promise<number> {
  const { code } = await bundleWorkflowCode({ ...WORKFLOW_BUNDLE_OPTIONS, logger: new DefaultLogger('WARN') });
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, code);
  return code.length;
}
