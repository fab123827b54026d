import { defineEntity, p } from '@mikro-orm/core';

/**
 * Single sign-on message ids remembered until they expire, in PostgreSQL so that every API process agrees:
 * `request:<id>` for an AuthnRequest we sent (its answer must name it, once), `assertion:<issuer>:<id>` for an
 * assertion we accepted (the same assertion is never accepted twice).
 */
export const SamlMessageIdSchema = defineEntity({
  name: 'SamlMessageId',
  tableName: 'saml_message_ids',
  properties: {
    key: p.string().primary(),
    value: p.string(),
    createdAt: p.datetime(),
    expiresAt: p.datetime().index(),
  },
});
