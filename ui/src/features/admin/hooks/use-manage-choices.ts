import { useMemo } from 'react';
import { snapshotFor, statusChoicesNow, type LifecycleContext, type RequestStatus } from '../../../../../domain';
import type { RequestRecord } from '../../../types/api';

/**
 * What Manage Request offers, asked of the domain lifecycle machine: the statuses an admin may choose now, whether
 * the chosen one may be saved with the verified box as it is, and whether Reopen applies.
 */
export function useManageChoices(request: RequestRecord, chosen: RequestStatus, verified: boolean) {
  const { requestType, certificateType, status } = request;
  return useMemo(() => {
    const context: LifecycleContext = { requestType, certificateType };
    const snapshot = snapshotFor(status, context);
    const statusChanged = chosen !== status;
    const allowed = !statusChanged || snapshot.can({ type: 'SET_STATUS', status: chosen, verified });
    return {
      choices: statusChoicesNow(status, context),
      statusChanged,
      canSave: allowed,
      /** The chosen status needs the Verified box (domain requiresVerification), and it is not ticked. */
      verificationMissing: !allowed && snapshot.can({ type: 'SET_STATUS', status: chosen, verified: true }),
      canReopen: snapshot.can({ type: 'REOPEN' }),
    };
  }, [requestType, certificateType, status, chosen, verified]);
}
