import type { AppConfig } from '../../config/app-config';
import type { Orm } from '../../db/orm';
import { recordStatusActivity } from '../effects/record-status';
import type { RecordStatusChangeInput } from '../../workflows/request-activities.types';

/**
 * LEGACY activity of runs recorded before the `commands-and-effects` patch (see workflows/legacy/): the same status
 * write as `recordStatus`, for a run that names no command and keeps its effects in its own memory.
 */
export function recordStatusChangeActivity(deps: { orm: Orm; config: AppConfig }) {
  const recordStatus = recordStatusActivity(deps);
  return (input: RecordStatusChangeInput): Promise<void> => recordStatus({ ...input, commandId: null, effect: null });
}
