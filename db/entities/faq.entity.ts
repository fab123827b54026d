import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from './common';

/**
 * FAQ (spec 1 §3): type Admin or Requester, question (max 120, unique within its type), answer (max 1,536) and
 * order, kept contiguous 1..n within each type by services/desk/faqs.ts.
 */
export const FaqSchema = defineEntity({
  name: 'Faq',
  tableName: 'faqs',
  properties: {
    ...baseProperties,
    type: p.string().length(16),
    question: p.string().length(120),
    answer: p.text(),
    order: p.integer(),
  },
  indexes: [{ properties: ['type', 'order'] }],
});
export type Faq = InferEntity<typeof FaqSchema>;
