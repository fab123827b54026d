import { api } from '../../../lib/api-client';
import type { UploadResult as UploadResultSchema } from '../../../../../contract/document.schema';
import type { Wire } from '../../../../../contract/wire';

export type UploadResult = Wire<typeof UploadResultSchema>;

/** Step 1 of adding a document: the bytes, as multipart fields `requestId` and `file`. */
export function uploadFile(requestId: number, file: File): Promise<UploadResult> {
  const body = new FormData();
  body.append('requestId', String(requestId));
  body.append('file', file, file.name);
  return api.post<UploadResult>('/upload', body);
}
