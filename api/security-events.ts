/** A security log line (services/desk/security-log.ts) with the caller's address and (when signed in) user from the HTTP call. */
import type { FastifyRequest } from 'fastify';
import { recordSecurityEvent, type SecurityEventInput } from '../services/desk/security-log';

export async function recordRequestSecurityEvent(request: FastifyRequest, event: Omit<SecurityEventInput, 'ip'>): Promise<void> {
  await recordSecurityEvent(request.em, { userId: request.sessionUser?.id ?? null, ...event, ip: request.ip });
}
