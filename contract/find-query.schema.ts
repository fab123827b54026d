/**
 * The query string of a list (spec 2 §7.1), as the OpenAPI document shows it. The rules themselves (which fields,
 * which operators, value types per field) live in api/query/feathers-query.ts: this schema only describes them
 * and leaves every parameter to that parser, so there is one definition of each rule.
 */
import { Type, type TProperties } from 'typebox';
import { REQUEST_TYPE_FILTERS } from '../domain';

const described = (description: string) => Type.Optional(Type.Unknown({ description }));

/** The list query, plus any parameter a resource documents on its own (e.g. the required `requestId`). */
export const findQuery = <P extends TProperties>(extra: P = {} as P) => Type.Object({
  ...extra,
  $limit: described('page size: a non-negative integer (default 1000, at most 1000; documents default to 50)'),
  $skip: described('records to skip: a non-negative integer'),
  $sort: described('`$sort[field]=1` ascending or `-1` descending'),
  $select: described('`$select[0]=field`: only these fields (and id)'),
  $or: described('`$or[0][field]=value`: any of the nested queries'),
  $and: described('`$and[0][field]=value`: all of the nested queries'),
}, {
  additionalProperties: true,
  description: 'Any listed field: exact match (`field=value`, `null` for empty) or `field[$op]=value` with $lt $lte $gt '
    + '$gte $ne $in (`$in[0]=a`) and, on text fields, $like (`%` wildcard). Values must parse as the field type '
    + '(integer, ISO date, true/false); anything else answers 400 BadRequest.',
});

export const FindQuery = findQuery();

/** The "Filter By Request Type" option (spec 1 §2) a request list or the work queue may be narrowed to. */
export const RequestTypeLabelParam = Type.Optional(Type.String({
  description: `one of: ${REQUEST_TYPE_FILTERS.join('; ')} (any other answers 400 BadRequest)`,
}));

/** `GET /requests`: the list query and the request-type label filter. */
export const RequestFindQuery = findQuery({ requestTypeLabel: RequestTypeLabelParam });
