/**
 * Saved histories of request workflows must replay on the current code: a change to the workflow or to the shared
 * lifecycle machine that would break running requests fails here (guard such changes with `patched()`).
 * Record a fresh history with `RECORD_HISTORY=1 npx vitest run --project workflows`.
 */
import { Worker } from '@temporalio/worker';
import { loadHistory } from './history-files';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WORKFLOWS_PATH } from '../../temporal/request-worker';

const dir = path.join(import.meta.dirname, 'histories');

describe('replay of saved request workflow histories', async () => {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json'));

  it('has at least one saved history', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  for (const file of files) {
    it(`replays ${file} without non-determinism`, async () => {
      const history = await loadHistory(path.join(dir, file));
      await expect(Worker.runReplayHistory({ workflowsPath: WORKFLOWS_PATH }, history, `replay-${file}`)).resolves.toBeUndefined();
    });
  }
});
