/** Custom search attributes an operator filters on in the Temporal Web UI and CLI (registered by temporal/dev-server). */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const RequestNumberKey = defineSearchAttributeKey('RequestNumber', SearchAttributeType.INT);
export const RequestStatusKey = defineSearchAttributeKey('RequestStatus', SearchAttributeType.KEYWORD);
export const RequestTypeKey = defineSearchAttributeKey('RequestType', SearchAttributeType.KEYWORD);
