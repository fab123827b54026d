/**
 * Building blocks of the route schemas. Every route schema is a typebox definition: plain JSON Schema for ajv, the
 * response serializer and the OpenAPI document, and (through `Static<>`) the TypeScript type of the same payload.
 */
import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';

/**
 * `null` next to a type, written as a JSON-schema type list rather than `anyOf`: ajv then reports one message per
 * field (not three), coercion stays predictable, and @fastify/swagger writes it as `nullable: true`.
 */
export function Nullable<T extends TSchema & { type: string }>(schema: T): TUnsafe<Static<T> | null> {
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] } as TSchema);
}

/** One of a list of strings (typed as their union), declared as a string so documents and messages say so. */
export function StringEnum<T extends string>(values: readonly T[], options: { description?: string } = {}): TUnsafe<T> {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...options } as TSchema);
}

/** A date sent by the client: an ISO 8601 timestamp (the UI sends 11:00 UTC of the calendar day, spec 2 §5). */
export const DateTimeInput = Type.String({ format: 'date-time' });

/** A stored timestamp in a response: the serializer writes a `Date` as its ISO string. */
export const Timestamp = Type.Unsafe<Date | string>({ type: 'string', format: 'date-time' } as TSchema);
export const NullableTimestamp = Type.Unsafe<Date | string | null>({ type: ['string', 'null'], format: 'date-time' } as TSchema);

/** Record ids are positive integers. */
export const Id = Type.Integer({ minimum: 1 });
export const IdParams = Type.Object({ id: Id });
