import type { PatchRequestBody } from '../../../../../contract/request.schema';
import { api } from '../../../lib/api-client';
import type { RequestRecord } from '../../../types/api';

/** Form fields, verification and notes: saved as they are, no version needed (the draft's autosave). */
export const updateRequest = (id: number, changes: PatchRequestBody): Promise<RequestRecord> =>
  api.patch<RequestRecord>(`/requests/${id}`, changes);
