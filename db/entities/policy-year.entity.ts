import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from './common';

/** Policy year (spec 1 §3): dates stored as that day at 11:00 UTC; limits are money strings. */
export const PolicyYearSchema = defineEntity({
  name: 'PolicyYear',
  tableName: 'policies',
  properties: {
    ...baseProperties,
    startDate: p.datetime(),
    endDate: p.datetime(),
    policyNumber: p.string(),
    limitClaim: p.string(),
    annualAggregate: p.string(),
  },
});
export type PolicyYear = InferEntity<typeof PolicyYearSchema>;
