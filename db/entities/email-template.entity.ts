import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from './common';

/** Email template (spec 1 §3): title, subject (max 100), body (max 2,500, handlebars), order. */
export const EmailTemplateSchema = defineEntity({
  name: 'EmailTemplate',
  tableName: 'email_templates',
  properties: {
    ...baseProperties,
    title: p.string().unique(),
    subject: p.string(),
    body: p.text(),
    order: p.integer(),
  },
});
export type EmailTemplate = InferEntity<typeof EmailTemplateSchema>;
