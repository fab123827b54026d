import { p } from '@mikro-orm/core';

/** id, createdAt, updatedAt: every record has them (spec 1 §3). */
export const baseProperties = {
  id: p.integer().primary().autoincrement(),
  createdAt: p.datetime().onCreate(() => new Date()),
  updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
};
