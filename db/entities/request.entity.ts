import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { ADDL_RECIPIENTS_MAX } from '../../domain/limits';
import { baseProperties } from './common';

/**
 * A request (spec 1 §3). The columns the first slice uses are typed columns; certificate-only fields arrive with
 * the certificate forms. `status` is written only by the request workflow's activities.
 */
export const RequestSchema = defineEntity({
  name: 'Request',
  tableName: 'requests',
  properties: {
    ...baseProperties,
    requestNumber: p.integer().nullable().unique(),
    requestType: p.string(),
    certificateType: p.string().nullable(),
    status: p.string().default('Draft').index(),
    source: p.string(),
    submitDate: p.datetime().nullable().index(),
    completedDate: p.datetime().nullable(),
    // requester
    requesterId: p.integer().index(),
    requesterName: p.string().nullable(),
    requesterLastName: p.string().nullable(),
    requesterEmail: p.string().nullable(),
    requesterPhone: p.string().nullable(),
    requesterCompany: p.string().nullable(),
    employerType: p.string(),
    addlRecipients: p.string().length(ADDL_RECIPIENTS_MAX).nullable(),
    recipientEmail: p.string().nullable(),
    internalNotes: p.text().nullable(),
    verified: p.boolean().default(false),
    credentialingCompany: p.string().nullable(),
    // clinician / person
    employeeId: p.string().nullable(),
    title: p.string().nullable(),
    lastName: p.string().nullable(),
    firstName: p.string().nullable(),
    middleInitial: p.string().nullable(),
    altName: p.string().nullable(),
    email: p.string().nullable().index(),
    birthDate: p.datetime().nullable(),
    providerType: p.string().nullable(),
    reason: p.string().nullable(),
    reasonOther: p.string().nullable(),
    licensingState: p.string().nullable(),
    facilityName: p.string().nullable(),
    dateFrom: p.datetime().nullable(),
    dateTo: p.datetime().nullable(),
    // vehicle and driver (searched by the admin search; the certificate forms fill them)
    autoType: p.string().nullable(),
    driverName: p.string().nullable(),
    plateNumber: p.string().nullable(),
    vehicleIdNumber: p.string().nullable(),
    /** The last command the request's workflow applied (its update id): a repeat is answered like the first. */
    lastCommandId: p.string().nullable(),
    version: p.integer().version(),
  },
});
export type Request = InferEntity<typeof RequestSchema>;
