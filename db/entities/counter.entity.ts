import { defineEntity, p } from '@mikro-orm/core';

/** Counter row holding lastRequestNumber (spec 1 §3); incremented under a row lock at each first submit. */
export const CounterSchema = defineEntity({
  name: 'Counter',
  tableName: 'counters',
  properties: {
    name: p.string().primary(),
    lastRequestNumber: p.integer(),
  },
});
