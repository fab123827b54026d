/**
 * The live stream's event (`GET /events`, server-sent `event: request`): the kind of change and the request's id,
 * never a field; the browser reloads what it shows through the ordinary, authorised calls.
 */
import { Type, type Static } from 'typebox';
import { Id, Nullable, StringEnum } from './primitives';

export const RequestEvent = Type.Object({
  kind: StringEnum(['created', 'status', 'message', 'activity', 'resync'], {
    description: 'created: a new request; status: a status change; message: a discussion message; activity: an audit row '
      + '(a clock, an email, a letter); resync: events may have been missed, reload everything',
  }),
  requestId: Nullable(Id),
}, { description: 'the `data` of each `event: request`, as JSON (`requestId` is null for `resync`)' });
export type RequestEvent = Static<typeof RequestEvent>;
