import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from './common';

/**
 * A CS-STARS claims row (spec 1 §3). Loaded from the CSV export by COPY into a staging table and merged
 * (services/desk/cs-stars-import.ts); a claim is one claim number for one physician, so a re-upload of the same
 * export updates rows instead of adding them (unique index `claims_data_claim_key`, in the migration).
 */
export const ClaimDataSchema = defineEntity({
  name: 'ClaimData',
  tableName: 'claims_data',
  properties: {
    ...baseProperties,
    exportDate: p.datetime(),
    physicianLastName: p.string(),
    physicianFirstName: p.string(),
    physicianMiddleInitial: p.string().length(1).default(''),
    involvement: p.string(),
    claimNumber: p.string(),
    type: p.string(),
    status: p.string(),
    outcome: p.string().default(''),
    claimDate: p.datetime(),
    reportDate: p.datetime(),
    indemnityPaid: p.decimal('string').precision(15).scale(2),
    description: p.text().default(''),
  },
});
export type ClaimData = InferEntity<typeof ClaimDataSchema>;
