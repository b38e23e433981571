// The listing as `expand[]` reads it (src/contracts/expansion.ts): with its ready media (one more
// batched read), and to a publishable key only when published, as its retrieve route answers it.
import { byId, type ExpandableObject } from '../../contracts/expansion.js';
import { readyMediaOfListings } from '../media/index.js';
import { selectListingsByIds } from './queries.js';
import { Listing } from './schemas.js';
import { serializeListing } from './serialize.js';

export const expandableListing: ExpandableObject = {
  object: 'listing',
  schema: Listing,
  publishable: true,
  fields: { seller: 'seller', category: 'category' },
  load: async (ctx, ids) => {
    const rows = (await selectListingsByIds(ctx.db, ctx.scope, ids)).filter((row) => ctx.viewer === 'secret' || row.status === 'published');
    const media = await readyMediaOfListings(ctx.db, ctx.hooks.storage, ctx.clock, ctx.scope, rows.map((row) => row.id));
    return byId(rows.map((row) => serializeListing(row, media.get(row.id))));
  },
};
