// The category as `expand[]` reads it (src/contracts/expansion.ts).
import { byId, type ExpandableObject } from '../../contracts/expansion.js';
import { selectCategoriesByIds } from './queries.js';
import { Category } from './schemas.js';
import { serializeCategory } from './serialize.js';

export const expandableCategory: ExpandableObject = {
  object: 'category',
  schema: Category,
  publishable: false,
  fields: {},
  load: async (ctx, ids) => byId((await selectCategoriesByIds(ctx.db, ctx.scope, ids)).map(serializeCategory)),
};
