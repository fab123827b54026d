import type { CreateRequestBody } from '../../../../../contract/request.schema';
import { api } from '../../../lib/api-client';
import type { RequestRecord } from '../../../types/api';

/** Creates a Draft of the given type with the form values typed so far. */
export const createRequest = (body: CreateRequestBody): Promise<RequestRecord> =>
  api.post<RequestRecord>('/requests', body);
