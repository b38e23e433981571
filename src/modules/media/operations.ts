// Media operations (interface.md 4.5, 3.2; contract 7). Start an upload (a pending media and a
// signed upload address) and list a listing's media, both for a flow that found the listing
// (src/flows/add-listing-media.ts, list-listing-media.ts); complete (check the stored file, then ready),
// delete. Complete talks to the store before its transaction: no transaction is held across
// network I/O (S3), and the transaction then checks the media is still pending.
import { fileTypeFromBuffer } from 'file-type';
import type { Tx } from '../../db/db.js';
import { toList, type ListEnvelope, type PageRequest } from '../../db/paging.js';
import { DomainError, errors } from '../../errors.js';
import { emitMove, move } from '../../domain/state-machine.js';
import { newId } from '../../ids.js';
import type { Scope } from '../../scope.js';
import type { DueTimer } from '../../contracts/background.js';
import { cancelTimer, scheduleTimer } from '../../workers/timers.js';
import type { OperationContext } from '../../contracts/context.js';
import { storageKey, UPLOAD_TTL_MS } from '../../contracts/storage.js';
import { countMediaOfListing, deleteMediaRow, insertMedia, lockMedia, selectMedia, selectMediaOfListing, updateMediaStatus } from './queries.js';
import { removeMediaRows } from './removal.js';
import type { CreateMediaBody, Media, MediaUpload } from './schemas.js';
import { mediaFile, mediaObjects, momentOf, serializeMedia } from './serialize.js';
import { MEDIA_MACHINE, MEDIA_UPLOAD_EXPIRE_TIMER } from './status.js';

/** file-type reads at most this many bytes to tell a type. */
const SNIFF_BYTES = 4100;

/** What media need to know of the listing they are added to or listed for (the flow found it). */
export interface ListingOfMedia {
  id: string;
  seller_id: string;
  status: string;
}

/**
 * Starts an upload of the listing's media, in the flow's transaction, the listing locked FOR
 * UPDATE by it (src/flows/add-listing-media.ts): 409 invalid_state for a removed listing, 409
 * limit_exceeded past MAX_MEDIA_PER_LISTING.
 */
export async function startMediaUpload(ctx: OperationContext, tx: Tx, listing: ListingOfMedia, body: CreateMediaBody): Promise<MediaUpload> {
  const { scope } = ctx;
  const moment = await momentOf(tx, ctx.clock, scope);
  const now = moment.modeNow;
  if (listing.status === 'removed') {
    throw new DomainError('invalid_state', `The listing is removed; it cannot take new media.`);
  }
  // The listing is locked by the flow, so two starts on it take turns and each counts the other's media.
  const limit = ctx.config.limits.mediaPerListing;
  if ((await countMediaOfListing(tx, scope, listing.id)) >= limit) {
    throw errors.limitExceeded('Media per listing (pending uploads included)', limit, 'MAX_MEDIA_PER_LISTING', 'delete one before starting another upload');
  }
  const id = newId('media');
  const uploadExpiresAt = new Date(now.getTime() + UPLOAD_TTL_MS);
  const row = await insertMedia(tx, scope, {
    id,
    listing_id: listing.id,
    seller_id: listing.seller_id,
    content_type: body.content_type,
    size_bytes: body.size_bytes,
    position: body.position ?? 0,
    storage_key: storageKey(scope, listing.id, id),
    upload_expires_at: uploadExpiresAt,
    created_at: now,
  });
  await scheduleTimer(tx, scope, MEDIA_UPLOAD_EXPIRE_TIMER, id, uploadExpiresAt);
  const uploadUrl = await ctx.hooks.storage.uploadUrl(mediaFile(scope, row), moment, uploadExpiresAt);
  return { media: serializeMedia(row, null), upload_url: uploadUrl, upload_expires_at: uploadExpiresAt.toISOString() };
}

/** A page of the media of a listing the flow found (src/flows/list-listing-media.ts), newest first. */
export async function listMediaOfListing(ctx: OperationContext, listing: ListingOfMedia, page: PageRequest): Promise<ListEnvelope<Media>> {
  const rows = await selectMediaOfListing(ctx.db, ctx.scope, listing.id, page);
  const objects = await mediaObjects(ctx.hooks.storage, ctx.scope, rows, await momentOf(ctx.db, ctx.clock, ctx.scope));
  return toList(objects, page.limit);
}

export async function completeMedia(ctx: OperationContext, id: string): Promise<Media> {
  const { scope } = ctx;
  const before = await selectMedia(ctx.db, scope, id);
  if (!before) throw errors.missing('media', id);
  move(MEDIA_MACHINE, before.status, 'complete', 'platform');
  // The store is asked with no transaction open.
  const stored = await ctx.hooks.storage.inspect(before.storage_key, SNIFF_BYTES);
  if (stored === null) {
    throw new DomainError('upload_missing', `No file was uploaded for the media ${id}; PUT it to its upload_url first.`);
  }
  if (stored.size !== before.size_bytes) {
    throw new DomainError('upload_mismatch', `The uploaded file has ${stored.size} bytes; the media declared ${before.size_bytes}.`);
  }
  const detected = await fileTypeFromBuffer(stored.head);
  if (detected?.mime !== before.content_type) {
    throw new DomainError(
      'upload_mismatch',
      `The uploaded file is ${detected ? detected.mime : 'of no known image type'}; the media declared ${before.content_type}.`,
    );
  }
  return ctx.db.transaction(async (tx) => {
    const moment = await momentOf(tx, ctx.clock, scope);
    const row = await lockMedia(tx, scope, id);
    if (!row) throw errors.missing('media', id);
    const complete = move(MEDIA_MACHINE, row.status, 'complete', 'platform');
    const ready = await updateMediaStatus(tx, scope, id, complete.to, moment.modeNow);
    await cancelTimer(tx, scope, MEDIA_UPLOAD_EXPIRE_TIMER, id);
    const [media] = await mediaObjects(ctx.hooks.storage, scope, [ready], moment);
    await emitMove(tx, scope, moment.modeNow, complete, media!);
    return media!;
  });
}

/** Deletes the media; its file is deleted by a job after commit. Answers the media (url null). */
export async function deleteMedia(ctx: OperationContext, id: string): Promise<Media> {
  const { scope } = ctx;
  return ctx.db.transaction(async (tx) => {
    const moment = await momentOf(tx, ctx.clock, scope);
    const row = await deleteMediaRow(tx, scope, id);
    if (!row) throw errors.missing('media', id);
    const [media] = await removeMediaRows(tx, scope, [row], moment.modeNow);
    return media!;
  });
}

/** The media.upload_expire timer: a media still pending when its upload grant ends is deleted with its file. */
export async function expireMediaUploadTimer(tx: Tx, scope: Scope, timer: DueTimer, now: Date): Promise<void> {
  const row = await lockMedia(tx, scope, timer.subjectId);
  if (!row || row.status !== 'pending' || row.upload_expires_at > now) return;
  await deleteMediaRow(tx, scope, row.id);
  await removeMediaRows(tx, scope, [row], now);
}
