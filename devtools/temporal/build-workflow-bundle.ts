/** Prebuilds the workflow bundle for production images: `node --import tsx devtools/temporal/build-workflow-bundle.ts [out]`. */
import { buildWorkflowBundle } from './workflow-bundle';

const out = process.argv[2] ?? 'dist/workflow-bundle.js';
const bytes = await buildWorkflowBundle(out);
console.log(`workflow bundle written to ${out} (${bytes} bytes)`);
