// Seller operations. Each owns its transaction, checks the rules,
// and emits its events in the same transaction. Lock order: the seller row first, then what hangs
// off it (storefront, verifications, listings). The functions at the end are for other modules'
// transactions (verifications, onboarding, listings): they lock or change a seller for them.
import { mapUniqueViolations } from '../../db/pg-errors.js';
import type { Queryable, Tx } from '../../db/db.js';
import { emitMove, move, type Row } from '../../domain/state-machine.js';
import { pageRequest, toList, type ListEnvelope } from '../../db/paging.js';
import { errors } from '../../errors.js';
import { emitEvent, previousAttributes } from '../../outbox/emit.js';
import { newId } from '../../ids.js';
import { sameJson } from '../../json.js';
import { modeNow, type Scope } from '../../scope.js';
import type { OperationContext } from '../../contracts/context.js';
import { eraseSellerData } from '../../contracts/erasure.js';
import { PARTY_REDACTION } from '../../contracts/redaction.js';
import { recordModerationAction, type ModerationAction } from '../parties/index.js';
import { applyPartyUpdate, partyFieldsOfCreate } from '../parties/index.js';
import * as queries from './queries.js';
import { sellerReputation } from './reputation.js';
import type {
  CreateSellerBody,
  ListSellersQuery,
  PutStorefrontBody,
  Seller,
  SellerProfile,
  Storefront,
  UpdateSellerBody,
  VerificationState,
} from './schemas.js';
import { PAYOUTS_MACHINE, type ReportedPayoutsStatus } from './payouts.js';
import { serializeProfile, serializeSeller } from './serialize.js';
import { SUSPENSION_MACHINE, type SuspensionOperation } from './suspension.js';

export type { SellerRow } from './queries.js';

const externalIdTaken = () => errors.exists('A seller with this external_id already exists.', 'external_id');
const slugTaken = () => errors.exists('A storefront with this slug already exists.', 'slug');

/**
 * Seller erasure also clears the storefront carried inside the seller's events, and the
 * suspension reason (platform text about the person). The moderation action keeps its reason.
 */
export const SELLER_REDACTION = { ...PARTY_REDACTION, suspended_reason: null, storefront: null } as const;

async function reload(tx: Tx, scope: Scope, id: string): Promise<Seller> {
  const row = await queries.selectSeller(tx, scope, id);
  if (!row) throw errors.missing('seller', id);
  return serializeSeller(row);
}

export async function createSeller(ctx: OperationContext, body: CreateSellerBody): Promise<Seller> {
  const { scope } = ctx;
  return mapUniqueViolations(
    () =>
      ctx.db.transaction(async (tx) => {
        const now = await modeNow(tx, ctx.clock, scope);
        const id = newId('seller');
        await queries.insertSeller(tx, scope, id, partyFieldsOfCreate(body), now);
        const seller = await reload(tx, scope, id);
        await emitEvent(tx, scope, now, 'seller.created', seller);
        return seller;
      }),
    { sellers_external_id_key: externalIdTaken },
  );
}

export async function retrieveSeller(ctx: OperationContext, id: string): Promise<Seller> {
  const row = await queries.selectSeller(ctx.db, ctx.scope, id);
  if (!row) throw errors.missing('seller', id);
  return serializeSeller(row);
}

export async function listSellers(ctx: OperationContext, query: ListSellersQuery): Promise<ListEnvelope<Seller>> {
  const page = pageRequest(query, 'seller');
  const rows = await queries.selectSellers(ctx.db, ctx.scope, page, { externalId: query.external_id, status: query.status, name: query.name, email: query.email });
  return toList(rows.map(serializeSeller), page.limit);
}

/** PATCH: changes the fields given; an update that changes nothing writes nothing and emits nothing. */
export async function updateSeller(ctx: OperationContext, id: string, body: UpdateSellerBody): Promise<Seller> {
  const { scope } = ctx;
  return mapUniqueViolations(
    () =>
      ctx.db.transaction(async (tx) => {
        const row = await requireLiveSeller(tx, scope, id, 'be updated');
        const before = serializeSeller(row);
        const fields = applyPartyUpdate(row, body);
        if (fields === null) return before;
        const now = await modeNow(tx, ctx.clock, scope);
        await queries.updateSellerParty(tx, scope, id, fields, now);
        const after = await reload(tx, scope, id);
        await emitEvent(tx, scope, now, 'seller.updated', after, previousAttributes(before, after));
        return after;
      }),
    { sellers_external_id_key: externalIdTaken },
    { deadlock: externalIdTaken },
  );
}

/** PUT storefront: creates it or replaces it whole; seller.updated carries the old storefront. */
export async function putStorefront(ctx: OperationContext, sellerId: string, body: PutStorefrontBody): Promise<Storefront> {
  const { scope } = ctx;
  return mapUniqueViolations(
    () =>
      ctx.db.transaction(async (tx) => {
        const row = await requireLiveSeller(tx, scope, sellerId, 'change its storefront');
        const before = serializeSeller(row);
        const values: queries.StorefrontValues = {
          name: body.name,
          slug: body.slug ?? null,
          description: body.description ?? null,
          metadata: body.metadata ?? {},
        };
        const current = before.storefront;
        if (
          current !== null &&
          current.name === values.name &&
          current.slug === values.slug &&
          current.description === values.description &&
          sameJson(current.metadata, values.metadata)
        ) {
          return current;
        }
        const now = await modeNow(tx, ctx.clock, scope);
        await queries.upsertStorefront(tx, scope, sellerId, newId('storefront'), values, now);
        await queries.updateSellerUpdatedAt(tx, scope, sellerId, now);
        const after = await reload(tx, scope, sellerId);
        await emitEvent(tx, scope, now, 'seller.updated', after, previousAttributes(before, after));
        if (!after.storefront) throw new Error(`storefront of ${sellerId} missing after upsert`);
        return after.storefront;
      }),
    { storefronts_slug_key: slugTaken },
    { deadlock: slugTaken },
  );
}

/**
 * The public profile (PK). An erased seller still answers, with name and storefront null: orders
 * and reputation outlive erasure, and nothing personal is left to show.
 */
export async function retrieveSellerProfile(ctx: OperationContext, id: string): Promise<SellerProfile> {
  const row = await queries.selectSeller(ctx.db, ctx.scope, id);
  if (!row) throw errors.missing('seller', id);
  return serializeProfile(row, await sellerReputation(ctx.db, ctx.scope, id));
}

/** The moderation action each suspension move records (the moves themselves: suspension.ts). */
const MODERATION_ACTION = { suspend: 'suspend_seller', unsuspend: 'unsuspend_seller' } as const satisfies Record<
  SuspensionOperation,
  ModerationAction['action']
>;

export async function changeSuspension(
  ctx: OperationContext,
  id: string,
  operation: SuspensionOperation,
  reason: string | null,
): Promise<Seller> {
  const { scope } = ctx;
  return ctx.db.transaction(async (tx) => {
    const now = await modeNow(tx, ctx.clock, scope);
    const seller = await setSellerSuspension(tx, scope, id, operation, reason, now);
    await recordModerationAction(tx, scope, now, { action: MODERATION_ACTION[operation], targetType: 'seller', target: id, reason });
    return seller;
  });
}

/**
 * DELETE: personal data removed from the record, its storefront, and everything other
 * modules keep about the seller (src/contracts/erasure.ts: its verifications' notes, its onboarding
 * links, its listings, every stored event and answer about them). Erasing an erased seller answers
 * the record again and changes nothing.
 */
export async function eraseSeller(ctx: OperationContext, id: string): Promise<Seller> {
  const { scope } = ctx;
  return ctx.db.transaction(async (tx) => {
    const row = await requireSeller(tx, scope, id);
    if (row.erased_at !== null) return serializeSeller(row);
    const now = await modeNow(tx, ctx.clock, scope);
    await queries.updateSellerErased(tx, scope, id, now);
    await queries.deleteStorefront(tx, scope, id);
    await eraseSellerData(ctx.hooks.erasure, tx, scope, id, now, { objectIds: [id], redaction: SELLER_REDACTION });
    const seller = await reload(tx, scope, id);
    await emitEvent(tx, scope, now, 'seller.erased', seller);
    return seller;
  });
}

// ---- for other modules' transactions ----

/** The seller, locked for the rest of the transaction; 404 when it is not in this scope. */
/** A seller's name for a page that shows it (the simulated processor's onboarding page); null when none. */
export async function findSellerName(q: Queryable, scope: Scope, id: string): Promise<string | null> {
  return (await queries.selectSellerNames(q, scope, [id])).get(id) ?? null;
}

export async function requireSeller(tx: Tx, scope: Scope, id: string): Promise<queries.SellerRow> {
  const row = await queries.lockSeller(tx, scope, id);
  if (!row) throw errors.missing('seller', id);
  return row;
}

/** As requireSeller, and 409 invalid_state when the seller was erased (it can no longer change). */
export async function requireLiveSeller(tx: Tx, scope: Scope, id: string, action: string): Promise<queries.SellerRow> {
  const row = await requireSeller(tx, scope, id);
  if (row.erased_at !== null) throw errors.invalidState('seller', 'erased', action);
  return row;
}

/**
 * The seller share-locked, or null: for a change that depends on the seller's state (a listing
 * published by it), which a suspension or erasure at the same time must wait for, or not overtake.
 */
export function findSellerForShare(tx: Tx, scope: Scope, id: string): Promise<queries.SellerRow | null> {
  return queries.lockSellerShared(tx, scope, id);
}

/**
 * Suspends or unsuspends the seller by the suspension table, in the caller's transaction (which
 * records the moderation action: the suspend route, or trust and safety's moderation actions).
 * 404 unknown, 409 invalid_state when erased or when the table has no such move.
 */
export async function setSellerSuspension(
  tx: Tx,
  scope: Scope,
  id: string,
  operation: SuspensionOperation,
  reason: string | null,
  now: Date,
): Promise<Seller> {
  const row = await requireLiveSeller(tx, scope, id, SUSPENSION_MACHINE.operations[operation]);
  const suspension = move(SUSPENSION_MACHINE, row.status, operation, 'platform');
  await queries.updateSellerStatus(tx, scope, id, suspension.to, suspension.to === 'suspended' ? reason : null, now);
  const seller = await reload(tx, scope, id);
  await emitMove(tx, scope, now, suspension, seller);
  return seller;
}

/**
 * Sets the seller's payouts state as the processor reports it, in the caller's transaction;
 * seller.payouts_updated when it changed. Used by onboarding and the payouts test helper.
 */
export async function setSellerPayouts(
  tx: Tx,
  scope: Scope,
  row: queries.SellerRow,
  status: ReportedPayoutsStatus,
  processorAccount: string | null,
  now: Date,
): Promise<Seller> {
  const report = move(PAYOUTS_MACHINE, row.payouts_status, `report_${status}`, 'processor');
  const before = serializeSeller(row);
  if (row.payouts_status === report.to && row.processor_account === processorAccount) return before;
  await queries.updateSellerPayouts(tx, scope, row.id, report.to, processorAccount, now);
  const after = await reload(tx, scope, row.id);
  await emitMove(tx, scope, now, report, after, previousAttributes(before, after));
  return after;
}

/**
 * Whether setSellerPayouts, given the seller's `row`, answered `after` with payouts enabled and
 * emitted seller.payouts_updated (it does when the status or the account changed): then the
 * seller's failed releases are retried, right after (payments `retryFailedReleases`).
 */
export function payoutsEnabledBy(row: queries.SellerRow, after: Seller): boolean {
  return after.payouts.status === 'enabled' && (row.payouts_status !== 'enabled' || row.processor_account !== after.payouts.processor_account);
}

/**
 * Moves the seller's verification state as its verifications decide it, by a row of its table
 * (verification-state.ts), in the caller's transaction; the row's events (seller.verification_updated).
 */
export async function setSellerVerification(
  tx: Tx,
  scope: Scope,
  row: queries.SellerRow,
  transition: Row<VerificationState, string, never>,
  now: Date,
): Promise<Seller> {
  const before = serializeSeller(row);
  await queries.updateSellerVerification(tx, scope, row.id, transition.to, now);
  const after = await reload(tx, scope, row.id);
  await emitMove(tx, scope, now, transition, after, previousAttributes(before, after));
  return after;
}

/** The seller's standing without a lock, or null: for rules read at one instant (an order checks the seller is active). */
export function findSellerStanding(q: Queryable, scope: Scope, id: string) {
  return queries.selectSellerStanding(q, scope, id);
}

/** The seller's payouts status and processor account, without a lock, or null. */
export function findSellerPayouts(q: Queryable, scope: Scope, id: string) {
  return queries.selectSellerPayouts(q, scope, id);
}

/** The seller holding this processor account, or null: processor reports name accounts, not sellers. */
export function findSellerIdByProcessorAccount(q: Queryable, scope: Scope, account: string) {
  return queries.selectSellerIdByProcessorAccount(q, scope, account);
}
