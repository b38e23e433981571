// Listing operations. Each owns its transaction, checks the
// rules, moves the state through the one table in status.ts, and emits its events in the same
// transaction. Locks are taken seller → listing → category (see migrations/0003_catalog.sql).
import type { Queryable, Tx } from '../../db/db.js';
import { pageRequest, toList, type ListEnvelope } from '../../db/paging.js';
import { DomainError, errors } from '../../errors.js';
import { emitEvent, previousAttributes } from '../../outbox/emit.js';
import { newId } from '../../ids.js';
import { modeNow, type Scope } from '../../scope.js';
import type { DueTimer } from '../../contracts/background.js';
import { applyTimers, emitMove, move, rowOf, timerMove, type Row } from '../../domain/state-machine.js';
import { assertAttributesFit } from '../categories/index.js';
import { requireCategoryForShare, type CategoryRow } from '../categories/index.js';
import type { OperationContext } from '../../contracts/context.js';
import { loadSettings } from '../marketplaces/index.js';
import { deleteMediaOfListing, readyMediaOfListings } from '../media/index.js';
import type { Media } from '../media/index.js';
import { findSellerForShare, type SellerRow } from '../sellers/index.js';
import { findProhibitedWord } from './prohibited-words.js';
import {
  insertListing,
  lockListing,
  lockListingShared,
  selectListing,
  selectListingForOrder,
  selectListings,
  selectListingSellerId,
  reserveUnitsStatement, type Statement,
  updateListingSell,
  updateListingStatus,
  updateListingUnreserve,
  updateListingsReserve,
  updateListingValues,
  type ListingRow,
  type ListingValues,
  type UnitType,
} from './queries.js';
import type { BulkCreateListingsBody, CreateListingBody, ListListingsQuery, Listing, UpdateListingBody } from './schemas.js';
import { serializeListing } from './serialize.js';
import { LISTING_EXPIRE_TIMER, LISTING_MACHINE, type ListingStatus } from './status.js';

export { LISTING_EXPIRE_TIMER };

/** A publishable key sees published listings only. */
const publishedOnly = (ctx: OperationContext) => ctx.viewer === 'publishable';

// ---- create ----

export async function createListing(ctx: OperationContext, body: CreateListingBody): Promise<Listing> {
  return ctx.db.transaction(async (tx) => {
    const now = await modeNow(tx, ctx.clock, ctx.scope);
    return insertOne(tx, ctx, body, now);
  });
}

/** All or none: one transaction; an error names the item, as in `listings[3].seller`. */
export async function createListingsBulk(ctx: OperationContext, body: BulkCreateListingsBody): Promise<{ object: 'list'; data: Listing[] }> {
  return ctx.db.transaction(async (tx) => {
    const now = await modeNow(tx, ctx.clock, ctx.scope);
    const data: Listing[] = [];
    for (const [index, item] of body.listings.entries()) {
      try {
        data.push(await insertOne(tx, ctx, item, now));
      } catch (error) {
        if (error instanceof DomainError) {
          const at = `listings[${index}]`;
          throw new DomainError(error.code, `${at}: ${error.message}`, error.param ? `${at}.${error.param}` : at, error.detail);
        }
        throw error;
      }
    }
    return { object: 'list' as const, data };
  });
}

async function insertOne(tx: Tx, ctx: OperationContext, body: CreateListingBody, now: Date): Promise<Listing> {
  const { scope } = ctx;
  const currency = checkCurrency(ctx, body.price.currency);
  const expiresAt = checkExpiresAt(body.expires_at ?? null, now);
  await requireListableSeller(tx, scope, body.seller);
  const categoryId = body.category ?? null;
  const attributes = body.attributes ?? {};
  if (categoryId !== null) {
    const category = await requireCategoryForShare(tx, scope, categoryId, 'category');
    assertAttributesFit(category.attribute_schema, attributes);
  }
  const row = await insertListing(tx, scope, {
    id: newId('listing'),
    seller_id: body.seller,
    category_id: categoryId,
    title: body.title,
    description: body.description ?? null,
    price_amount: body.price.amount,
    currency,
    quantity: body.quantity ?? 1,
    attributes,
    metadata: body.metadata ?? {},
    expires_at: expiresAt,
    ...unitOf(body),
    now,
  });
  const listing = serializeListing(row);
  await emitEvent(tx, scope, now, 'listing.created', listing);
  return listing;
}

/**
 * The unit fields of a new listing, checked against its unit_type: an item listing takes neither
 * seats nor slot_minutes; a day or time listing takes no quantity (it sells time, not counted
 * units); a time listing needs slot_minutes, a day listing refuses it.
 */
function unitOf(body: CreateListingBody): { unit_type: UnitType; seats: number; slot_minutes: number | null } {
  const unitType = body.unit_type ?? 'item';
  if (unitType === 'item') {
    if (body.seats !== undefined) throw errors.invalidRequest('seats is for listings that sell time (unit_type day or time); an item listing has a quantity.', 'seats');
    if (body.slot_minutes !== undefined) throw errors.invalidRequest('slot_minutes is for listings of unit_type time.', 'slot_minutes');
    return { unit_type: unitType, seats: 1, slot_minutes: null };
  }
  if (body.quantity !== undefined) throw errors.invalidRequest(`A listing of unit_type ${unitType} sells time, not counted units: give seats, not quantity.`, 'quantity');
  if (unitType === 'day' && body.slot_minutes !== undefined) throw errors.invalidRequest('A day listing is booked by whole days; slot_minutes is for unit_type time.', 'slot_minutes');
  if (unitType === 'time' && body.slot_minutes === undefined) throw errors.invalidRequest('A time listing needs slot_minutes, the length of its slot.', 'slot_minutes');
  return { unit_type: unitType, seats: body.seats ?? 1, slot_minutes: body.slot_minutes ?? null };
}

// ---- read ----

export async function listListings(ctx: OperationContext, query: ListListingsQuery): Promise<ListEnvelope<Listing>> {
  const page = pageRequest(query, 'listing');
  const rows = await selectListings(
    ctx.db,
    ctx.scope,
    { seller: query.seller, category: query.category, status: query.status, title: query.title, publishedOnly: publishedOnly(ctx) },
    page,
  );
  const media = await readyMediaOfListings(ctx.db, ctx.hooks.storage, ctx.clock, ctx.scope, rows.map((row) => row.id));
  return toList(
    rows.map((row) => serializeListing(row, media.get(row.id))),
    page.limit,
  );
}

export async function retrieveListing(ctx: OperationContext, id: string): Promise<Listing> {
  const row = await selectListing(ctx.db, ctx.scope, id);
  // To a publishable key a listing that is not published does not exist.
  if (!row || (publishedOnly(ctx) && row.status !== 'published')) throw errors.missing('listing', id);
  return serializeListing(row, await mediaOf(ctx, ctx.db, id));
}

/** The listing, read without a lock; null when there is none (listing a listing's media: src/flows/list-listing-media.ts). */
export function findListing(q: Queryable, scope: Scope, id: string): Promise<ListingRow | null> {
  return selectListing(q, scope, id);
}

/** A listing's ready media, for its `media` array. */
async function mediaOf(ctx: OperationContext, q: Queryable, id: string): Promise<Media[]> {
  return (await readyMediaOfListings(q, ctx.hooks.storage, ctx.clock, ctx.scope, [id])).get(id) ?? [];
}

// ---- update ----

export async function updateListing(ctx: OperationContext, id: string, body: UpdateListingBody): Promise<Listing> {
  const { scope } = ctx;
  return ctx.db.transaction(async (tx) => {
    const now = await modeNow(tx, ctx.clock, scope);
    const before = await requireListing(tx, scope, id);
    const update = move(LISTING_MACHINE, before.status, 'update', 'platform');
    const values: ListingValues = {
      category_id: body.category === undefined ? before.category_id : body.category,
      title: body.title ?? before.title,
      description: body.description === undefined ? before.description : body.description,
      price_amount: body.price?.amount ?? before.price_amount,
      currency: body.price ? checkCurrency(ctx, body.price.currency) : before.currency,
      quantity: body.quantity ?? before.quantity,
      attributes: body.attributes ?? before.attributes,
      metadata: body.metadata ?? before.metadata,
      expires_at: body.expires_at === undefined ? before.expires_at : changedExpiresAt(body.expires_at, before.expires_at, now),
      seats: body.seats ?? before.seats,
      slot_minutes: body.slot_minutes ?? before.slot_minutes,
    };
    if (body.seats !== undefined && before.unit_type === 'item') throw errors.invalidRequest('seats is for listings that sell time (unit_type day or time); an item listing has a quantity.', 'seats');
    if (body.slot_minutes !== undefined && before.unit_type !== 'time') throw errors.invalidRequest('slot_minutes is for listings of unit_type time.', 'slot_minutes');
    if (body.quantity !== undefined && before.unit_type !== 'item') throw errors.invalidRequest(`A listing of unit_type ${before.unit_type} sells time, not counted units: change seats, not quantity.`, 'quantity');
    const held = before.quantity_reserved + before.quantity_sold;
    if (values.quantity < held) {
      throw errors.invalidRequest(
        `quantity cannot go below the ${held} units held by open orders or sold (asked for ${values.quantity}).`,
        'quantity',
      );
    }
    const category = values.category_id === null ? null : await requireCategoryForShare(tx, scope, values.category_id, 'category');
    if (category !== null) assertAttributesFit(category.attribute_schema, values.attributes);

    const media = await mediaOf(ctx, tx, id);
    const previous = serializeListing(before, media);
    const changes = previousAttributes(previous, serializeListing({ ...before, ...values }, media));
    if (Object.keys(changes).length === 0) return previous;

    if (before.status === 'published') {
      // A published listing must keep meeting what publishing it required of its content.
      if (category !== null && category.id !== before.category_id) assertCategoryAllowed(category);
      await assertNoProhibitedWords(tx, scope, values);
    }
    const row = await updateListingValues(tx, scope, id, values, now);
    await applyTimers(tx, scope, update, id, { [LISTING_EXPIRE_TIMER]: row.expires_at });
    const listing = serializeListing(row, media);
    await emitMove(tx, scope, now, update, listing, previousAttributes(previous, listing));
    return listing;
  });
}

// ---- state changes ----

export async function publishListing(ctx: OperationContext, id: string): Promise<Listing> {
  const { scope } = ctx;
  return ctx.db.transaction(async (tx) => {
    const now = await modeNow(tx, ctx.clock, scope);
    // The seller is locked before the listing (lock order), so its id is read first without a lock;
    // a listing's seller never changes.
    const sellerId = await selectListingSellerId(tx, scope, id);
    if (sellerId === null) throw errors.missing('listing', id);
    const seller = (await findSellerForShare(tx, scope, sellerId))!;
    const before = await requireListing(tx, scope, id);
    const publish = move(LISTING_MACHINE, before.status, 'publish', 'platform');
    if (before.expires_at !== null && before.expires_at <= now) {
      throw new DomainError(
        'invalid_state',
        `The listing is ${before.status} and its expires_at (${before.expires_at.toISOString()}) has passed; it cannot be published. ` +
          'Set a later expires_at, or null, first.',
      );
    }
    await assertSellerMayPublish(tx, scope, seller);
    if (before.category_id !== null) assertCategoryAllowed(await requireCategoryForShare(tx, scope, before.category_id));
    await assertNoProhibitedWords(tx, scope, before);
    const row = await updateListingStatus(tx, scope, id, publish.to, now, { published_at: now });
    await applyTimers(tx, scope, publish, id, { [LISTING_EXPIRE_TIMER]: row.expires_at });
    return emitChange(tx, scope, now, publish, row, await mediaOf(ctx, tx, id));
  });
}

export async function unpublishListing(ctx: OperationContext, id: string): Promise<Listing> {
  const { scope } = ctx;
  return ctx.db.transaction(async (tx) => {
    const now = await modeNow(tx, ctx.clock, scope);
    const before = await requireListing(tx, scope, id);
    const unpublish = move(LISTING_MACHINE, before.status, 'unpublish', 'platform');
    const row = await updateListingStatus(tx, scope, id, unpublish.to, now);
    await applyTimers(tx, scope, unpublish, id);
    return emitChange(tx, scope, now, unpublish, row, await mediaOf(ctx, tx, id));
  });
}

export async function removeListing(ctx: OperationContext, id: string, reason: string): Promise<Listing> {
  const { scope } = ctx;
  return ctx.db.transaction(async (tx) => setListingRemoved(tx, scope, id, reason, await modeNow(tx, ctx.clock, scope)));
}

// ---- for other modules' transactions ----

/**
 * Removes the listing with `reason` as removed_reason, in the caller's transaction (trust and
 * safety's remove_listing): 404 unknown, 409 invalid_state from a state the table does not remove.
 */
export async function setListingRemoved(tx: Tx, scope: Scope, id: string, reason: string, now: Date): Promise<Listing> {
  const before = await requireListing(tx, scope, id);
  const remove = move(LISTING_MACHINE, before.status, 'remove', 'platform');
  const row = await updateListingStatus(tx, scope, id, remove.to, now, { removed_reason: reason });
  await applyTimers(tx, scope, remove, id);
  // A removed listing cannot come back: its media and their files go (contract 7: no orphan files).
  await deleteMediaOfListing(tx, scope, id, now);
  return emitChange(tx, scope, now, remove, row);
}

/** The listing share-locked (a flag raised against it), or null when it is not in this scope. */
export function findListingForShare(tx: Tx, scope: Scope, id: string): Promise<ListingRow | null> {
  return lockListingShared(tx, scope, id);
}

/**
 * The listing.expire timer: a published listing whose expires_at has come becomes expired. A timer
 * that no longer applies (unpublished, removed, moved expiry) is dropped: every change of expiry
 * moves or cancels the timer in its own transaction, so a stale one only meets a changed listing.
 */
export async function expireListingTimer(tx: Tx, scope: Scope, timer: DueTimer, now: Date): Promise<void> {
  const row = await lockListing(tx, scope, timer.subjectId);
  const expire = row && timerMove(LISTING_MACHINE, row.status, LISTING_EXPIRE_TIMER);
  if (!row || !expire || row.expires_at === null || row.expires_at > now) return;
  const expired = await updateListingStatus(tx, scope, row.id, expire.to, now);
  await applyTimers(tx, scope, expire, row.id);
  await emitChange(tx, scope, now, expire, expired);
}

// ---- rules ----

/** The listing locked FOR UPDATE, or 404 (a flow locks a listing before adding media to it: src/flows/add-listing-media.ts). */
export async function requireListing(tx: Tx, scope: Scope, id: string): Promise<ListingRow> {
  const row = await lockListing(tx, scope, id);
  if (!row) throw errors.missing('listing', id);
  return row;
}

async function requireListableSeller(tx: Tx, scope: Scope, sellerId: string): Promise<SellerRow> {
  const seller = await findSellerForShare(tx, scope, sellerId);
  if (!seller) throw errors.missing('seller', sellerId, 'seller');
  if (seller.erased_at !== null) {
    throw new DomainError('invalid_state', `The seller ${sellerId} is erased; it cannot have new listings.`, 'seller');
  }
  return seller;
}

function checkCurrency(ctx: OperationContext, currency: string): string {
  const upper = currency.toUpperCase();
  if (upper !== ctx.currency.toUpperCase()) {
    throw errors.invalidRequest(`The price must be in the marketplace currency, ${ctx.currency} (got ${currency}).`, 'price.currency');
  }
  return upper;
}

function checkExpiresAt(value: string | null, now: Date): Date | null {
  if (value === null) return null;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw errors.invalidRequest(`expires_at is not a valid timestamp: '${value}'.`, 'expires_at');
  if (at <= now) {
    throw errors.invalidRequest(`expires_at must be in the future (it is now ${now.toISOString()}).`, 'expires_at');
  }
  return at;
}

/**
 * expires_at on update: only a new time must be in the future. Sending back the time the listing
 * already has (a client PATCHes what it GETs, maybe after that time passed) changes nothing and is
 * not checked again; any form of the same instant counts as the same time.
 */
function changedExpiresAt(value: string | null, current: Date | null, now: Date): Date | null {
  if (value !== null && current !== null) {
    const at = new Date(value);
    if (at.getTime() === current.getTime()) return current;
  }
  return checkExpiresAt(value, now);
}

async function assertSellerMayPublish(tx: Tx, scope: Scope, seller: SellerRow): Promise<void> {
  if (seller.status === 'suspended') {
    throw errors.forbidden('seller_suspended', `The seller ${seller.id} is suspended and cannot publish.`);
  }
  const settings = await loadSettings(tx, scope);
  if (settings.seller_verification_required && seller.verification_status !== 'verified') {
    throw errors.forbidden(
      'seller_not_verified',
      `Seller verification is required in this marketplace and the seller ${seller.id} is ${seller.verification_status}.`,
    );
  }
}

function assertCategoryAllowed(category: CategoryRow): void {
  if (category.prohibited) {
    throw errors.forbidden('category_prohibited', `The category ${category.id} is prohibited; its listings cannot be published.`, 'category');
  }
}

async function assertNoProhibitedWords(
  tx: Tx,
  scope: Scope,
  text: { title: string; description: string | null; attributes: Record<string, string> },
): Promise<void> {
  const { prohibited_words: words } = await loadSettings(tx, scope);
  const hit = findProhibitedWord(text, words);
  if (hit !== null) {
    throw errors.forbidden('prohibited_content', `The ${hit.param} contains the prohibited word '${hit.word}'.`, hit.param);
  }
}

async function emitChange(
  tx: Tx,
  scope: Scope,
  now: Date,
  transition: Row<string, string, string>,
  row: ListingRow,
  media: Media[] = [],
): Promise<Listing> {
  const listing = serializeListing(row, media);
  await emitMove(tx, scope, now, transition, listing);
  return listing;
}

// ---- units, for orders' transactions ----

/** What an order needs of a listing before it reserves: read without a lock. */
export interface ListingForOrder {
  id: string;
  seller_id: string;
  category_id: string | null;
  status: ListingStatus;
  price_amount: number;
  currency: string;
  quantity_available: number;
}

export async function findListingForOrder(q: Queryable, scope: Scope, id: string): Promise<ListingForOrder | null> {
  const row = await selectListingForOrder(q, scope, id);
  if (!row) return null;
  return {
    id: row.id,
    seller_id: row.seller_id,
    category_id: row.category_id,
    status: row.status,
    price_amount: Number(row.price_amount),
    currency: row.currency,
    quantity_available: row.quantity - row.quantity_reserved - row.quantity_sold,
  };
}

/**
 * The statement that reserves an order's units of a published listing, for its flow to send last,
 * with its COMMIT (queries.ts says why; docs/performance.md R4); it raises the refusal
 * 'units_unavailable' when the listing is not published or has too few units, which rolls the
 * transaction back.
 */
export type { Statement } from './queries.js';

export function unitsReservation(scope: Scope, listingId: string, quantity: number): Statement {
  return reserveUnitsStatement(scope, listingId, quantity);
}

/** Units asked of one listing (a checkout's items of that listing, summed). */
export interface UnitsWanted {
  listing: string;
  quantity: number;
}

/** The listing a checkout could not reserve: missing (status null), not published, or short of units. */
export interface ShortListing {
  listing: string;
  status: ListingStatus | null;
  available: number;
}

/**
 * Reserves the units of several listings in the caller's transaction, all or nothing, locking the
 * listings in id order (no deadlock between checkouts that share listings, whatever their items'
 * order). Answers null when every unit is reserved; else the first listing, in the order given,
 * that is missing, not published or short, with nothing reserved (the caller refuses and rolls
 * back). Each listing once: sum the quantities of items of one listing first.
 */
export async function reserveUnitsOfListings(tx: Tx, scope: Scope, wanted: readonly UnitsWanted[]): Promise<ShortListing | null> {
  const short = await updateListingsReserve(tx, scope, wanted.map((w) => w.listing), wanted.map((w) => w.quantity));
  return short && { listing: short.id, status: short.status, available: short.available };
}

/** Units of an order that was cancelled or expired before it was claimed go back to the listing. */
export async function returnUnits(tx: Tx, scope: Scope, listingId: string, quantity: number): Promise<void> {
  await updateListingUnreserve(tx, scope, listingId, quantity);
}

/**
 * Reserved units become sold. A published listing whose sold units reach its quantity becomes
 * sold (`listing.sold`) by the listing table's sell row; a listing in another state only counts.
 */
export async function sellUnits(tx: Tx, scope: Scope, listingId: string, quantity: number, now: Date): Promise<void> {
  const row = await updateListingSell(tx, scope, listingId, quantity);
  if (row.quantity_sold < row.quantity) return;
  const sell = rowOf(LISTING_MACHINE, row.status, 'sell');
  if (!sell) return;
  const sold = await updateListingStatus(tx, scope, listingId, sell.to, now);
  await applyTimers(tx, scope, sell, listingId);
  await emitChange(tx, scope, now, sell, sold);
}
