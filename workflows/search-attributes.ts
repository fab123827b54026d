/** Custom search attributes an operator filters on in the Temporal Web UI and CLI (registered by temporal/dev-server). */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const RequestNumberKey = defineSearchAttributeKey('RequestNumber', SearchAttributeType.INT);
export const RequestStatusKey = defineSearchAttributeKey('RequestStatus', SearchAttributeType.KEYWORD);
export const RequestTypeKey = defineSearchAttributeKey('RequestType', SearchAttributeType.KEYWORD);

/** Every key above, for the dev server and operators' setup to register. */
export const REQUEST_SEARCH_ATTRIBUTE_KEYS = [RequestNumberKey, RequestStatusKey, RequestTypeKey];
