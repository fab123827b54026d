/**
 * A payload as the UI receives it. The schemas type what the API's handlers return (a `Date` is fine there); JSON
 * has no dates, so the serializer writes each as its ISO string. The UI imports these with `import type` only: no
 * typebox code reaches the browser bundle.
 */
import type { Static, TSchema } from 'typebox';

type Json<T> = T extends Date
  ? string
  : T extends readonly (infer Item)[]
    ? Json<Item>[]
    : T extends object
      ? { [Key in keyof T]: Json<T[Key]> }
      : T;

/** What a schema's payload looks like in the browser. */
export type Wire<Schema extends TSchema> = Json<Static<Schema>>;
