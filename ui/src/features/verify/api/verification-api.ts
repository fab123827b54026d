/** The public verification calls (no sign-in needed; a stored session is sent and ignored). */
import type { VerificationAnswer } from '../../../../../contract/verification.schema';
import type { Wire } from '../../../../../contract/wire';
import { api } from '../../../lib/api-client';

export type Verification = Wire<typeof VerificationAnswer>;

export const verifyCode = (code: string, signal?: AbortSignal) =>
  api.get<Verification>(`/verify/${encodeURIComponent(code)}`, { signal, skipAuthRedirect: true });

export function verifyPdf(file: File): Promise<Verification> {
  const form = new FormData();
  form.append('file', file, 'letter.pdf');
  return api.post<Verification>('/verify/pdf', form, { skipAuthRedirect: true });
}
