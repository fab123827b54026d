/** Test processes log Temporal SDK messages from WARN up (bundler and worker state INFO lines hide test output). */
import { DefaultLogger, Runtime } from '@temporalio/worker';

try {
  Runtime.install({ logger: new DefaultLogger('WARN') });
} catch {
  // a runtime already exists in this process
}
