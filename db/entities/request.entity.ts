import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { ADDL_RECIPIENTS_MAX } from '../../domain/limits';
import { baseProperties } from './common';

/**
 * A request (spec 1 §3): one typed column per form field of every kind (domain/request-kinds.ts declares them). `status` is written only by the request workflow's activities.
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
    /** credentialing: the signed release's date (`yyyy-mm-dd`), recorded by an administrator when verifying; valid 180 days */
    signedReleaseDate: p.date().nullable(),
    signedReleaseRecordedAt: p.datetime().nullable(),
    credentialingCompany: p.string().nullable(),
    // clinician / person
    employeeId: p.string().nullable(),
    /** copied from the directory (people) by employee id when the request is saved: administrators only */
    hireDate: p.datetime().nullable(),
    employmentStatus: p.string().length(1).nullable(),
    terminationDate: p.datetime().nullable(),
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
    /** credentialing, Authorization section: the requester confirmed the clinician authorized the release */
    releaseAuthorized: p.boolean().nullable(),
    /** the role of the person the request names (Clinician, Employee, Event Organizer, Provider, Supervisor) */
    personRole: p.string().nullable(),
    workPhone: p.string().nullable(),
    // certificate
    certificateHolder: p.string().nullable(),
    certificateHolderAddress: p.string().nullable(),
    certificateHolderEmail: p.string().nullable(),
    contractLeaseType: p.string().nullable(),
    contractNumber: p.string().nullable(),
    leaseNumber: p.string().nullable(),
    loanNumber: p.string().nullable(),
    ocaNumber: p.string().nullable(),
    isForLeasedProperty: p.string().nullable(),
    leaseExpirationDate: p.datetime().nullable(),
    leasedPropertyName: p.string().nullable(),
    leasedPropertyAddress: p.string().nullable(),
    buildingNumber: p.string().nullable(),
    internalContact: p.string().nullable(),
    reasonEquipment: p.text().nullable(),
    newLeaseOrEquip: p.string().nullable(),
    lessorName: p.string().nullable(),
    lessorEmail: p.string().nullable(),
    lessorAddress: p.string().nullable(),
    // auto liability
    autoType: p.string().nullable(),
    driverName: p.string().nullable(),
    rentalCompany: p.string().nullable(),
    pickUpAddress: p.string().nullable(),
    rentalStartDate: p.datetime().nullable(),
    rentalEndDate: p.datetime().nullable(),
    /** times of day of the period, `HH:mm` on the half hour (wall-clock of the period's day, not instants) */
    rentalStartTime: p.string().nullable(),
    rentalEndTime: p.string().nullable(),
    acknowledgedApproval: p.boolean().nullable(),
    // vehicle
    plateNumber: p.string().nullable(),
    vehicleYear: p.string().nullable(),
    vehicleMake: p.string().nullable(),
    vehicleModel: p.string().nullable(),
    vehicleColor: p.string().nullable(),
    vehicleIdNumber: p.string().nullable().index(),
    vehicleLocation: p.string().nullable(),
    vehicleLocationOther: p.string().nullable(),
    vehicleOwningDept: p.string().nullable(),
    vehicleOwningDeptOther: p.string().nullable(),
    vehicleType: p.string().nullable(),
    vehicleTypeOther: p.string().nullable(),
    vehicleDecommissioned: p.boolean().nullable(),
    vehicleTransferred: p.boolean().nullable(),
    // event
    eventName: p.string().nullable(),
    eventType: p.string().nullable(),
    eventLocation: p.string().nullable(),
    eventDescription: p.text().nullable(),
    eventStartDate: p.datetime().nullable(),
    eventEndDate: p.datetime().nullable(),
    eventStartTime: p.string().nullable(),
    eventEndTime: p.string().nullable(),
    eventPatientCare: p.string().nullable(),
    eventPatientCareDetail: p.text().nullable(),
    isProviderEmployRelated: p.string().nullable(),
    /** the request this draft was cloned from (Clone on the dashboard) */
    clonedFromId: p.integer().nullable(),
    /** The last command the request's workflow applied (its update id): a repeat is answered like the first. */
    lastCommandId: p.string().nullable(),
    /** When the request entered its status: set by a database trigger on every status write (wake-ups compare it). */
    statusChangedAt: p.datetime().nullable(),
    /**
     * Set by a CS-STARS upload that added or changed a claim of this clinician within the period of the issued
     * claim-history letter; cleared when a new letter is stored. Written by plain SQL only, so
     * setting it never bumps `version` under an administrator's open page.
     */
    letterStaleSince: p.datetime().nullable(),
    /** the office's renewal mark (domain/renewals.ts): renews automatically, never renew, or decided by the rules */
    renewalPreference: p.string().length(8).$type<'auto' | 'never'>().nullable(),
    version: p.integer().version(),
  },
});
export type Request = InferEntity<typeof RequestSchema>;
