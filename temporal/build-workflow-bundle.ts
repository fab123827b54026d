/** Prebuilds the workflow bundle for production images: `node --import tsx temporal/build-workflow-bundle.ts [out]`. */
import { bundleWorkflowCode } from '@temporalio/worker';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { WORKFLOW_INTERCEPTOR_MODULES, WORKFLOWS_PATH } from './request-worker';

const out = process.argv[2] ?? 'dist/workflow-bundle.js';
const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES });
await mkdir(path.dirname(out), { recursive: true });
await writeFile(out, code);
console.log(`workflow bundle written to ${out} (${code.length} bytes)`);
