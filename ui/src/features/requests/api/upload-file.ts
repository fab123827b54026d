import { api } from '../../../lib/api-client';

export interface UploadResult {
  storedName: string;
  filename: string;
  size: number;
  mimeType: string;
}

/** Step 1 of adding a document: the bytes, as multipart fields `requestId` and `file`. */
export function uploadFile(requestId: number, file: File): Promise<UploadResult> {
  const body = new FormData();
  body.append('requestId', String(requestId));
  body.append('file', file, file.name);
  return api.post<UploadResult>('/upload', body);
}
