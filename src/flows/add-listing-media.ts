// Starting a media upload of a listing (POST /v1/listings/{id}/media, contract 7): one transaction
// that locks the listing (listings), then starts the upload (media: a pending media, its expiry
// timer and the signed upload address). The listing stays locked to the COMMIT, so two starts on
// it take turns and each counts the other's media against the listing's limit.
import type { OperationContext } from '../contracts/context.js';
import { requireListing } from '../modules/listings/index.js';
import { startMediaUpload, type CreateMediaBody, type MediaUpload } from '../modules/media/index.js';

/** Refusals in this order: 404 unknown listing; 409 invalid_state (removed listing); 409 limit_exceeded. */
export async function addListingMedia(ctx: OperationContext, listingId: string, body: CreateMediaBody): Promise<MediaUpload> {
  return ctx.db.transaction(async (tx) => {
    const listing = await requireListing(tx, ctx.scope, listingId);
    return startMediaUpload(ctx, tx, listing, body);
  });
}
