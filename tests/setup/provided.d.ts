/** Values tests/setup/global-setup.ts provides: `import { inject } from 'vitest'; inject('databaseUrl')`. */
import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A fresh, migrated and seeded database for this test run (dropped afterwards). */
    databaseUrl: string;
    /** host:port of a Temporal dev server for this run (in memory), with the portal's search attributes. */
    temporalAddress: string;
    /** The workflow code bundled once for the run (devtools/temporal/workflow-bundle.ts): `workflowBundlePath` of a worker. */
    workflowBundlePath: string;
    /** The production build (scripts/build.ts, workflow bundle included) made once for the run: read it, never change it. */
    productionBuild: import('../../scripts/build').BuildResult;
    /** A folder where the e2e processes mark the screen shapes axe has scanned (tests/support/accessibility-watch.ts). */
    axeShapesDir: string;
    /** A development signing certificate for the run (LETTER_SIGNING_P12, base64) and its password. */
    letterSigning: { p12: string; password: string };
  }
}
