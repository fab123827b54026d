/** Custom search attributes an operator filters on in the Temporal Web UI and CLI (registered by devtools/temporal/dev-server). */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const RequestNumberKey = defineSearchAttributeKey('RequestNumber', SearchAttributeType.INT);
export const RequestStatusKey = defineSearchAttributeKey('RequestStatus', SearchAttributeType.KEYWORD);
export const RequestTypeKey = defineSearchAttributeKey('RequestType', SearchAttributeType.KEYWORD);
/** the certificate type of a certificate request (Clinician, Event, …); absent for claim history requests */
export const RequestSubtypeKey = defineSearchAttributeKey('RequestSubtype', SearchAttributeType.KEYWORD);
/** the requester's email, lower case */
export const RequestRequesterKey = defineSearchAttributeKey('RequestRequester', SearchAttributeType.KEYWORD);
/** the clock the workflow waits on (domain/request-clocks.ts ClockKind: reminder-1, escalation, …) and when it is due */
export const RequestClockKey = defineSearchAttributeKey('RequestClock', SearchAttributeType.KEYWORD);
export const RequestClockDueKey = defineSearchAttributeKey('RequestClockDue', SearchAttributeType.DATETIME);

/** Every key above, for the dev server and operators' setup to register. */
export const REQUEST_SEARCH_ATTRIBUTE_KEYS = [
  RequestNumberKey, RequestStatusKey, RequestTypeKey, RequestSubtypeKey, RequestRequesterKey, RequestClockKey, RequestClockDueKey,
];

/** What a request workflow is started with, from its PostgreSQL row (the API and the wake-up activity both start runs). */
export function requestStartSearchAttributes(request: {
  requestNumber: number; status: string; requestType: string; certificateType?: string | null; requesterEmail?: string | null;
}) {
  return [
    { key: RequestNumberKey, value: request.requestNumber },
    { key: RequestStatusKey, value: request.status },
    { key: RequestTypeKey, value: request.requestType },
    ...(request.certificateType ? [{ key: RequestSubtypeKey, value: request.certificateType }] : []),
    ...(request.requesterEmail ? [{ key: RequestRequesterKey, value: request.requesterEmail.toLowerCase() }] : []),
  ];
}
