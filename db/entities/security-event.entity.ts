import { defineEntity, p } from '@mikro-orm/core';

/**
 * One line of the security log: sign-ins, refusals, admin-list changes, deactivations, email changes and
 * confirmations, password resets, template edits, exports, CS-STARS uploads. Kinds: domain/security-events.ts.
 * Written with a plain insert (services/desk/security-log.ts), kept a year.
 */
export const SecurityEventSchema = defineEntity({
  name: 'SecurityEvent',
  tableName: 'security_events',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    at: p.datetime(),
    kind: p.string(),
    /** The user the event is about or who acted (null: nobody known, e.g. a failed sign-in with an unknown address). */
    userId: p.integer().nullable(),
    /** The address involved (the one typed at a sign-in, the one added to the admin list, …). */
    email: p.string().nullable(),
    /** The client's address as the API sees it (TRUST_PROXY decides whether a proxy's X-Forwarded-For counts). */
    ip: p.string().nullable(),
    detail: p.json<Record<string, unknown>>(),
  },
});
