/**
 * The certificate's (or letter of intent's) data, taken from the request inside the status change's transaction
 * (see request-snapshot.ts): the holder, the named insured, the coverage that fits the subtype with the policy
 * years covering the dates, and the insured activity described per subtype.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { PolicyYearSchema, type Request } from '../../db/entities';
import { certificateSubtypeLabel, coveredPeriod, DEFAULT_OFFICE_TIME_ZONE, formatOfficeDate, formatTimeOfDay, policyYearsCovering, PRODUCT_NAME, RENTAL_AUTO_TYPE, STATUS } from '../../domain';
import type { CertificateData } from '../pdf/certificate.html';

/** The coverage a subtype's certificate shows. */
export const COVERAGE_LINE: Record<string, string> = {
  Clinician: 'Professional Liability',
  Provider: 'Professional Liability',
  'Auto Liability': 'Automobile Liability',
  'Contracts/Lease': 'General and Professional Liability',
  Event: 'General and Professional Liability',
  Property: 'Property and General Liability',
};

// The request's own dates are calendar days (11:00 UTC of the day): the same day in the office's zone.
const day = (d: Date | null | undefined) => formatOfficeDate(d, DEFAULT_OFFICE_TIME_ZONE);
/** A day with its time of day when one was given (events and rentals; requests stored before times have none). */
const dayAt = (d: Date | null | undefined, time: string | null | undefined) => join(day(d), time ? formatTimeOfDay(time) : '');
const join = (...parts: (string | null | undefined)[]) => parts.filter(Boolean).join(' ');
const withOther = (value: string | null | undefined, other: string | null | undefined) => (other ? `${value ?? ''}: ${other}` : value ?? '');

/** The insured activity, label and value, per subtype (empty values left out). */
export function describeInsuredActivity(r: Request): Array<[string, string]> {
  const person = join(r.firstName, r.middleInitial, r.lastName);
  const rows: Array<[string, string | null | undefined]> = [];
  switch (r.certificateType) {
    case 'Clinician':
      rows.push(['Clinician', join(person, r.title ? `(${r.title})` : '')], ['Facility', r.facilityName],
        ['Coverage dates', `${day(r.dateFrom)} – ${day(r.dateTo)}`]);
      break;
    case 'Provider':
      rows.push(['Provider', join(person, r.title ? `(${r.title})` : '')], ['Provider type', r.providerType],
        ['Reason', withOther(r.reason, r.reasonOther)], ['Licensing state', r.licensingState], ['Facility', r.facilityName],
        ['Coverage dates', `${day(r.dateFrom)} – ${day(r.dateTo)}`]);
      break;
    case 'Auto Liability':
      if (r.autoType === RENTAL_AUTO_TYPE) {
        rows.push(['Rental vehicle', 'Vehicle rented for university business'], ['Driver', r.driverName],
          ['Rental company', r.rentalCompany], ['Pick-up address', r.pickUpAddress],
          ['Rental dates', `${dayAt(r.rentalStartDate, r.rentalStartTime)} – ${dayAt(r.rentalEndDate, r.rentalEndTime)}`], ['VIN', r.vehicleIdNumber]);
      } else {
        rows.push(['Vehicle', join(r.vehicleYear, r.vehicleMake, r.vehicleModel, r.vehicleColor ? `(${r.vehicleColor})` : '')],
          ['VIN', r.vehicleIdNumber], ['License plate', r.plateNumber], ['Vehicle type', withOther(r.vehicleType, r.vehicleTypeOther)],
          ['Location', withOther(r.vehicleLocation, r.vehicleLocationOther)],
          ['Owning department', withOther(r.vehicleOwningDept, r.vehicleOwningDeptOther)]);
      }
      rows.push([r.personRole === 'Supervisor' ? 'Supervisor responsible' : 'Employee responsible', person]);
      break;
    case 'Contracts/Lease':
      rows.push([r.contractLeaseType === 'Lease' ? 'Lease number' : 'Contract number', r.contractLeaseType === 'Lease' ? r.leaseNumber : r.contractNumber],
        ['Lease expiration', day(r.leaseExpirationDate)], ['OCA number', r.ocaNumber],
        ['Leased property', r.isForLeasedProperty === 'Yes' ? join(r.leasedPropertyName, r.buildingNumber ? `(building ${r.buildingNumber})` : '') : ''],
        ['Property address', r.isForLeasedProperty === 'Yes' ? r.leasedPropertyAddress : '']);
      break;
    case 'Event':
      rows.push(['Event', r.eventName], ['Event type', r.eventType], ['Event dates', `${dayAt(r.eventStartDate, r.eventStartTime)} – ${dayAt(r.eventEndDate, r.eventEndTime)}`],
        ['Location', r.eventLocation], ['Description', r.eventDescription],
        ['Patient care', r.eventPatientCare === 'Yes' ? `Yes: ${r.eventPatientCareDetail ?? ''}` : r.eventPatientCare],
        ['Event organizer', person], ['OCA number', r.ocaNumber]);
      break;
    case 'Property':
      rows.push(['Property', withOther(r.reason, r.reasonOther)], ['Equipment', r.reasonEquipment],
        ['Building', join(r.leasedPropertyName, r.buildingNumber ? `(building ${r.buildingNumber})` : '')],
        ['Building address', r.leasedPropertyAddress], ['Lessor', join(r.lessorName, r.lessorAddress ? `, ${r.lessorAddress}` : '')],
        ['Contract number', r.contractNumber], ['Lease/loan number', r.loanNumber]);
      break;
    default:
      break;
  }
  return rows.filter((row): row is [string, string] => !!row[1] && row[1].replace(/[–\s]/g, '') !== '');
}

/** `issuedOn`: the office's day the certificate is issued (`yyyy-mm-dd`); `coverage`: the period, when not the request's own. */
export async function certificateData(em: EntityManager, r: Request, issuedOn: string, timeZone: string, coverage?: { from: string; to: string }): Promise<CertificateData> {
  // A renewal names the period it covers (domain/renewals.ts `renewalPeriod`); an approval's is the request's.
  const period = coverage ?? coveredPeriod(r, issuedOn);
  const years = await em.find(PolicyYearSchema, {}, { orderBy: { startDate: 'asc' } });
  return {
    requestNumber: r.requestNumber!,
    issuedOn,
    timeZone,
    certificateType: r.certificateType ?? '',
    subtypeLabel: certificateSubtypeLabel(r.certificateType, r.autoType),
    holder: { name: r.certificateHolder ?? '', address: r.certificateHolderAddress ?? '', email: r.certificateHolderEmail ?? null },
    namedInsured: `${PRODUCT_NAME} (self-insurance program)`,
    coverageLine: COVERAGE_LINE[r.certificateType ?? ''] ?? 'General Liability',
    period,
    policyYears: policyYearsCovering(
      years.map((y) => ({
        startDate: y.startDate.toISOString(), endDate: y.endDate.toISOString(), policyNumber: y.policyNumber,
        limitClaim: y.limitClaim, annualAggregate: y.annualAggregate,
      })),
      period.from.slice(0, 10), period.to.slice(0, 10),
    ),
    description: describeInsuredActivity(r),
    requesterName: r.requesterName ?? r.requesterEmail ?? '',
  };
}

/** Which document an approval of a certificate request issues. */
export const certificateDocumentKind = (status: string): 'certificate' | 'letter-of-intent' =>
  status === STATUS.approvedWithLetterOfIntent ? 'letter-of-intent' : 'certificate';
