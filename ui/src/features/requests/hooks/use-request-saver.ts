import { useCallback, useEffect, useRef, useState } from 'react';
import { updateRequest } from '../../../lib/request-api';
import type { RequestRecord } from '../../../types/api';
import { createRequest } from '../api/create-request';
import { AUTOSAVE_DELAY_MS } from '../../../../../domain';

export type DraftSaveState = 'idle' | 'saving' | 'saved' | 'error';

interface RequestSaverOptions {
  initialId: number | null;
  /** The version of the request as the page loaded it (undefined for a new form, or from a server without it). */
  initialVersion?: number;
  /** The payload at the moment the save runs (so queued saves send the latest form). */
  payload: (mode: 'create' | 'update') => Record<string, unknown>;
  onCreated: (record: RequestRecord) => void;
  /** what the create call says besides the form: the type (credentialing by default), subtype, clone source */
  createBody?: () => Record<string, unknown>;
}

/**
 * Saves of one request, one at a time: the first save creates the Draft (POST), later ones patch it.
 * Autosave runs 750 ms after the last edit (spec 1 §2) and is flushed when the page closes.
 */
export function useRequestSaver({ initialId, initialVersion, payload, onCreated, createBody }: RequestSaverOptions) {
  const idRef = useRef<number | null>(initialId);
  // Every save answers with the request as stored: its version is the one the next command (Submit) is made on.
  const versionRef = useRef<number | undefined>(initialVersion);
  const remember = useCallback((record: Pick<RequestRecord, 'version'>) => {
    if (typeof record.version === 'number') versionRef.current = record.version;
  }, []);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef({ payload, onCreated, createBody });
  latest.current = { payload, onCreated, createBody };
  const [saveState, setSaveState] = useState<DraftSaveState>('idle');

  /**
   * Runs `task` after every save queued before it; creates the draft first (with the current form) when none
   * exists, and tells the task so it can skip saving the same values again.
   */
  const enqueue = useCallback(<T,>(task: (id: number, justCreated: boolean) => Promise<T>): Promise<T> => {
    const run = async () => {
      if (idRef.current != null) return task(idRef.current, false);
      const created = await createRequest({
        requestType: 'credentialing', ...(latest.current.createBody?.() ?? {}), ...latest.current.payload('create'),
      });
      idRef.current = created.id;
      remember(created);
      latest.current.onCreated(created);
      return task(created.id, true);
    };
    const result = queue.current.then(run, run);
    queue.current = result.catch(() => undefined);
    return result;
  }, [remember]);

  const cancelAutosave = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  }, []);

  const saveDraft = useCallback(async (): Promise<number> => {
    cancelAutosave();
    setSaveState('saving');
    try {
      const id = await enqueue(async (id, justCreated) => {
        if (!justCreated) remember(await updateRequest(id, latest.current.payload('update')));
        return id;
      });
      setSaveState('saved');
      return id;
    } catch (error) {
      setSaveState('error');
      throw error;
    }
  }, [enqueue, cancelAutosave, remember]);

  const scheduleAutosave = useCallback(() => {
    cancelAutosave();
    timer.current = setTimeout(() => {
      timer.current = null;
      saveDraft().catch(() => undefined);
    }, AUTOSAVE_DELAY_MS);
  }, [cancelAutosave, saveDraft]);

  /** An id for uploads: the draft is created on the first document if it does not exist yet. */
  const ensureRequestId = useCallback(() => enqueue(async (id) => id), [enqueue]);

  // Leaving the page within the autosave delay still saves the last edit.
  useEffect(() => () => {
    if (timer.current) {
      clearTimeout(timer.current);
      timer.current = null;
      saveDraft().catch(() => undefined);
    }
  }, [saveDraft]);

  return {
    saveState, saveDraft, scheduleAutosave, cancelAutosave, enqueue, ensureRequestId, remember,
    requestId: () => idRef.current,
    /** The version from the latest answer (read inside `enqueue`, i.e. after every earlier save has answered). */
    version: () => versionRef.current,
  };
}
