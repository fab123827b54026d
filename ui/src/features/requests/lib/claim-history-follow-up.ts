/**
 * After a claim history request is submitted for a current employee or student, the success modal asks whether a
 * current Certificate of Insurance is needed too (spec 1 §1); Yes opens a Clinician certificate filled from it.
 */
import type { NavigateFunction } from 'react-router-dom';
import { dayToServerIso, parseUsDate, type RequestFormValues } from '../../../../../domain';
import { paths } from '../../../lib/paths';
import type { FollowUp } from '../components/submit-success-dialog';

/** Provider types of a current employee or student. */
const CURRENT_PROVIDER_TYPES: readonly string[] = ['Current Employee/Fellow/Resident', 'Current Student'];

/** The fields a Clinician certificate takes over from the claim history request (its dates as the API stores them). */
const CARRIED_FIELDS = ['employeeId', 'lastName', 'firstName', 'middleInitial', 'email', 'facilityName', 'recipientEmail', 'addlRecipients'] as const;

function certificatePrefill(values: RequestFormValues): Record<string, unknown> {
  const iso = (text: unknown) => { const day = typeof text === 'string' ? parseUsDate(text) : null; return day ? dayToServerIso(day) : undefined; };
  return {
    ...Object.fromEntries(CARRIED_FIELDS.map((field) => [field, values[field]])),
    dateFrom: iso(values.dateFrom), dateTo: iso(values.dateTo),
  };
}

export function claimHistoryFollowUp(values: RequestFormValues, navigate: NavigateFunction): FollowUp | null {
  if (!CURRENT_PROVIDER_TYPES.includes(String(values.providerType ?? ''))) return null;
  return {
    question: 'Do you also need a current Certificate of Insurance for this clinician?',
    yesLabel: 'Start a Clinician certificate',
    onYes: () => navigate(paths.certificate.new.getHref(), { state: { certificateType: 'Clinician', prefill: certificatePrefill(values) } }),
  };
}
