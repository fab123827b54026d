/**
 * Every setting, read once from the environment with embedded development defaults (issue #2).
 * Imported by the API, the worker and the scripts; never by workflows/ or ui/.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface AppConfig {
  rootDir: string;
  dataDir: string;
  uploadsDir: string;
  databaseUrl: string;
  temporalAddress: string;
  temporalNamespace: string;
  taskQueue: string;
  temporalUiUrl: string;
  smtpUrl: string | null;
  mailFrom: string;
  outboxPort: number;
  chromiumPath: string;
  apiHost: string;
  apiPort: number;
  publicUrl: string;
  jwtSecret: string;
  uploadMaxBytes: number;
  /** Prebuilt workflow bundle (production image); when absent the worker bundles workflows at start-up. */
  workflowBundlePath: string | null;
  /** How long the API waits for the workflow to take a status change before answering 503 (try again). */
  workflowAnswerTimeoutMs: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const dataDir = path.resolve(env.DATA_DIR ?? path.join(root, 'data'));
  const apiPort = Number(env.PORT ?? 3030);
  const apiHost = env.HOST ?? '127.0.0.1';
  return {
    rootDir: root,
    dataDir,
    uploadsDir: path.join(dataDir, 'uploads'),
    databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/coi_portal',
    temporalAddress: env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233',
    temporalNamespace: env.TEMPORAL_NAMESPACE ?? 'default',
    taskQueue: env.TEMPORAL_TASK_QUEUE ?? 'coi-requests',
    temporalUiUrl: env.TEMPORAL_UI_URL ?? 'http://127.0.0.1:8233',
    smtpUrl: env.SMTP_URL ?? null,
    mailFrom: env.MAIL_FROM ?? 'Risk Management <riskmanagement@coi-portal.local>',
    outboxPort: Number(env.OUTBOX_PORT ?? 8025),
    chromiumPath: env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    apiHost,
    apiPort,
    publicUrl: env.PUBLIC_URL ?? `http://${apiHost}:${apiPort}`,
    jwtSecret: env.JWT_SECRET ?? 'development-only-secret-change-me-in-production-0123456789',
    uploadMaxBytes: Number(env.UPLOAD_MAX_BYTES ?? 10 * 1024 * 1024),
    workflowBundlePath: env.WORKFLOW_BUNDLE_PATH ?? null,
    workflowAnswerTimeoutMs: Number(env.WORKFLOW_ANSWER_TIMEOUT_MS ?? 30_000),
  };
}
