import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from './common';

/**
 * Claim-history entry (spec 1 §3): a claim linked to a credentialing request, copied from the claims data when
 * linked (so the letter says what was linked even if a later upload changes the source row). A request with no
 * claim selected gets one placeholder entry (claimId and claimNumber null).
 */
export const ClaimHistorySchema = defineEntity({
  name: 'ClaimHistory',
  tableName: 'claim_history',
  properties: {
    ...baseProperties,
    requestId: p.integer().index(),
    claimId: p.integer().nullable(),
    physician: p.string(),
    physicianLastName: p.string().nullable(),
    physicianFirstName: p.string().nullable(),
    physicianMiddleInitial: p.string().nullable(),
    involvement: p.string().nullable(),
    claimNumber: p.string().nullable(),
    reportDate: p.datetime().nullable(),
    indemnityPaid: p.string().nullable(),
  },
});
export type ClaimHistory = InferEntity<typeof ClaimHistorySchema>;
