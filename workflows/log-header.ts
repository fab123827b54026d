/**
 * The id of the HTTP call behind a command, carried as a Temporal header from the API's client into the workflow and
 * on to the activities it schedules, so one id finds an operator every log line of a command:
 * the API's (Fastify's `reqId`), the workflow's and its activities' (the worker's JSON logs, `reqId` too).
 * Pure: imported by the workflow bundle, the API's client interceptor and the worker's activity interceptor.
 */
import { defaultPayloadConverter, type Headers } from '@temporalio/common';

/** The log field and the Temporal header: Fastify's own name, never `requestId` (a portal request's id). */
export const REQ_ID = 'reqId';

/** An id an upstream proxy may hand us (`x-request-id`): short, printable, nothing a log reader could trip on. */
export const ACCEPTABLE_REQ_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function withReqId(headers: Headers, reqId: string | undefined): Headers {
  return reqId ? { ...headers, [REQ_ID]: defaultPayloadConverter.toPayload(reqId) } : headers;
}

export function reqIdOf(headers: Headers | undefined): string | undefined {
  const payload = headers?.[REQ_ID];
  if (!payload) return undefined;
  const value: unknown = defaultPayloadConverter.fromPayload(payload);
  return typeof value === 'string' && ACCEPTABLE_REQ_ID.test(value) ? value : undefined;
}
