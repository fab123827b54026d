/** Prebuilds the workflow bundle for production images: `node --import tsx temporal/build-workflow-bundle.ts [out]`. */
import { bundleWorkflowCode } from '@temporalio/worker';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { WORKFLOW_BUNDLE_OPTIONS } from './request-worker';

const out = process.argv[2] ?? 'dist/workflow-bundle.js';
const { code } = await bundleWorkflowCode(WORKFLOW_BUNDLE_OPTIONS);
await mkdir(path.dirname(out), { recursive: true });
await writeFile(out, code);
console.log(`workflow bundle written to ${out} (${code.length} bytes)`);
