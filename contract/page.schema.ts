/** A Feathers-style page (spec 2 §7.1): what every list answers. */
import { Type, type TSchema } from 'typebox';

export const Page = <T extends TSchema>(item: T) => Type.Object({
  total: Type.Integer({ minimum: 0, description: 'records matching the query' }),
  limit: Type.Integer({ minimum: 0 }),
  skip: Type.Integer({ minimum: 0 }),
  data: Type.Array(item),
});
