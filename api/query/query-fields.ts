/**
 * Which fields a list may be queried by, and the type each value must parse as, taken from the entity definition
 * (`XSchema.meta.properties[field].type`, a MikroORM type class), so a column's type is written once.
 */
import {
  BooleanType, CharacterType, DateTimeType, DateType, DoubleType, EnumType, FloatType, IntegerType, MediumIntType,
  SmallIntType, StringType, TextType, TinyIntType, UuidType,
} from '@mikro-orm/core';

export type FieldKind = 'integer' | 'number' | 'date' | 'boolean' | 'string';
export type QueryFields = Readonly<Record<string, FieldKind>>;

type TypeClass = abstract new (...args: never[]) => unknown;

const KINDS: ReadonlyArray<readonly [TypeClass, FieldKind]> = [
  [IntegerType, 'integer'], [SmallIntType, 'integer'], [TinyIntType, 'integer'], [MediumIntType, 'integer'],
  [FloatType, 'number'], [DoubleType, 'number'],
  [DateTimeType, 'date'], [DateType, 'date'],
  [BooleanType, 'boolean'],
  [StringType, 'string'], [TextType, 'string'], [UuidType, 'string'], [EnumType, 'string'], [CharacterType, 'string'],
];

function kindOf(entityName: string, field: string, type: unknown): FieldKind {
  for (const [typeClass, kind] of KINDS) {
    if (type === typeClass || (typeof type === 'function' && type.prototype instanceof typeClass)) return kind;
  }
  // A new column type must be given a query kind here before it can be queried; fail at start, not per request.
  throw new Error(`${entityName}.${field}: no query kind for its type ${String((type as { name?: string })?.name ?? type)}`);
}

interface EntityDefinition { meta: { className?: string; properties: Record<string, unknown> } }

/** The query fields of `names` (those that are columns of the entity), each with the kind of its column type. */
export function queryFieldsOf(entity: EntityDefinition, names: Iterable<string>): QueryFields {
  const entityName = entity.meta.className ?? 'entity';
  const fields: Record<string, FieldKind> = {};
  for (const name of names) {
    const property = entity.meta.properties[name] as { type?: unknown } | undefined;
    if (!property) continue; // a computed response field (e.g. documents of a request) is not a column
    fields[name] = kindOf(entityName, name, property.type);
  }
  return Object.freeze(fields);
}
