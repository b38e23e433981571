// Listing a listing's media (GET /v1/listings/{id}/media): the page asked is checked (400), the
// listing found (listings; 404 when there is none), then a page of its media read (media). No
// transaction: two reads.
import type { OperationContext } from '../contracts/context.js';
import { pageRequest, type ListEnvelope } from '../db/paging.js';
import { errors } from '../errors.js';
import { findListing } from '../modules/listings/index.js';
import { listMediaOfListing, type ListMediaQuery, type Media } from '../modules/media/index.js';

export async function listListingMedia(ctx: OperationContext, listingId: string, query: ListMediaQuery): Promise<ListEnvelope<Media>> {
  const page = pageRequest(query, 'media');
  const listing = await findListing(ctx.db, ctx.scope, listingId);
  if (!listing) throw errors.missing('listing', listingId);
  return listMediaOfListing(ctx, listing, page);
}
