// Seller operations (interface.md 4.2, contract 5). Each owns its transaction, checks the rules,
// and emits its events in the same transaction. Lock order: the seller row first, then what hangs
// off it (storefront, verifications, listings).
import { mapUniqueViolations } from '../../db/errors.js';
import type { Tx } from '../../db/db.js';
import { emitMove, move } from '../../domain/state-machine.js';
import { errors } from '../../errors.js';
import { emitEvent, previousAttributes, sameJson } from '../../events/emit.js';
import { toList, type ListEnvelope, type PageRequest } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import { modeNow, type Scope } from '../../scope.js';
import { removeListingsOfErasedSeller } from '../listings/operations.js';
import { deleteOnboardingLinksOfSeller } from '../onboarding/queries.js';
import type { PartyDeps } from '../parties/deps.js';
import { PARTY_REDACTION, redactStoredEvents, redactStoredResponses } from '../parties/erasure.js';
import { recordModerationAction, type ModerationAction } from '../parties/moderation-actions.js';
import { applyPartyUpdate, partyFieldsOfCreate, type PartyCreateBody, type PartyUpdateBody } from '../parties/schemas.js';
import { eraseVerificationsOfSeller, VERIFICATION_REDACTION } from '../verifications/queries.js';
import { PAYOUTS_MACHINE, type ReportedPayoutsStatus } from './payouts.js';
import * as queries from './queries.js';
import { sellerReputation } from './reputation.js';
import type { Seller, SellerProfile, SellerStatus, Storefront, StorefrontBody } from './schemas.js';
import { serializeProfile, serializeSeller } from './serialize.js';
import { SUSPENSION_MACHINE, type SuspensionOperation } from './suspension.js';

const externalIdTaken = () => errors.exists('A seller with this external_id already exists.', 'external_id');
const slugTaken = () => errors.exists('A storefront with this slug already exists.', 'slug');

/**
 * Seller erasure also clears the storefront carried inside the seller's events, and the
 * suspension reason (platform text about the person). The moderation action keeps its reason.
 */
export const SELLER_REDACTION = { ...PARTY_REDACTION, suspended_reason: null, storefront: null } as const;

/** The seller, locked for the rest of the transaction; 404 when it is not in this scope. */
export async function lockSeller(tx: Tx, scope: Scope, id: string): Promise<queries.SellerRow> {
  const row = await queries.findSeller(tx, scope, id, true);
  if (!row) throw errors.missing('seller', id);
  return row;
}

/** As lockSeller, and 409 invalid_state when the seller was erased (it can no longer change). */
export async function lockLiveSeller(tx: Tx, scope: Scope, id: string, action: string): Promise<queries.SellerRow> {
  const row = await lockSeller(tx, scope, id);
  if (row.erased_at !== null) throw errors.invalidState('seller', 'erased', action);
  return row;
}

async function reload(tx: Tx, scope: Scope, id: string): Promise<Seller> {
  const row = await queries.findSeller(tx, scope, id);
  if (!row) throw errors.missing('seller', id);
  return serializeSeller(row);
}

export async function createSeller(deps: PartyDeps, scope: Scope, body: PartyCreateBody): Promise<Seller> {
  return mapUniqueViolations(
    () =>
      deps.db.transaction(async (tx) => {
        const now = await modeNow(tx, deps.clock, scope);
        const id = newId('seller');
        await queries.insertSeller(tx, scope, id, partyFieldsOfCreate(body), now);
        const seller = await reload(tx, scope, id);
        await emitEvent(tx, scope, now, 'seller.created', seller);
        return seller;
      }),
    { sellers_external_id_key: externalIdTaken },
  );
}

export async function retrieveSeller(deps: PartyDeps, scope: Scope, id: string): Promise<Seller> {
  const row = await queries.findSeller(deps.db, scope, id);
  if (!row) throw errors.missing('seller', id);
  return serializeSeller(row);
}

export async function listSellers(
  deps: PartyDeps,
  scope: Scope,
  page: PageRequest,
  filter: { externalId?: string; status?: SellerStatus },
): Promise<ListEnvelope<Seller>> {
  const rows = await queries.listSellers(deps.db, scope, page, filter);
  return toList(rows.map(serializeSeller), page.limit);
}

/** PATCH: changes the fields given; an update that changes nothing writes nothing and emits nothing. */
export async function updateSeller(deps: PartyDeps, scope: Scope, id: string, body: PartyUpdateBody): Promise<Seller> {
  return mapUniqueViolations(
    () =>
      deps.db.transaction(async (tx) => {
        const row = await lockLiveSeller(tx, scope, id, 'be updated');
        const before = serializeSeller(row);
        const fields = applyPartyUpdate(row, body);
        if (fields === null) return before;
        const now = await modeNow(tx, deps.clock, scope);
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
export async function putStorefront(deps: PartyDeps, scope: Scope, sellerId: string, body: StorefrontBody): Promise<Storefront> {
  return mapUniqueViolations(
    () =>
      deps.db.transaction(async (tx) => {
        const row = await lockLiveSeller(tx, scope, sellerId, 'change its storefront');
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
        const now = await modeNow(tx, deps.clock, scope);
        await queries.upsertStorefront(tx, scope, sellerId, newId('storefront'), values, now);
        await queries.touchSeller(tx, scope, sellerId, now);
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
 * and reputation outlive erasure (interface.md 1), and nothing personal is left to show.
 */
export async function getSellerProfile(deps: PartyDeps, scope: Scope, id: string): Promise<SellerProfile> {
  const row = await queries.findSeller(deps.db, scope, id);
  if (!row) throw errors.missing('seller', id);
  return serializeProfile(row, await sellerReputation(deps.db, scope, id));
}

/** The moderation action each suspension move records (the moves themselves: suspension.ts). */
const MODERATION_ACTION = { suspend: 'suspend_seller', unsuspend: 'unsuspend_seller' } as const satisfies Record<
  SuspensionOperation,
  ModerationAction['action']
>;

export async function changeSuspension(
  deps: PartyDeps,
  scope: Scope,
  id: string,
  operation: SuspensionOperation,
  reason: string | null,
): Promise<Seller> {
  return deps.db.transaction(async (tx) => {
    const row = await lockLiveSeller(tx, scope, id, SUSPENSION_MACHINE.operations[operation]);
    const suspension = move(SUSPENSION_MACHINE, row.status, operation, 'platform');
    const now = await modeNow(tx, deps.clock, scope);
    await queries.updateSellerStatus(tx, scope, id, suspension.to, suspension.to === 'suspended' ? reason : null, now);
    const seller = await reload(tx, scope, id);
    await emitMove(tx, scope, now, suspension, seller);
    await recordModerationAction(tx, scope, now, { action: MODERATION_ACTION[operation], targetType: 'seller', target: id, reason });
    return seller;
  });
}

/**
 * Sets the seller's payouts state as the processor reports it, in the caller's transaction;
 * seller.payouts_updated when it changed. Used by onboarding and the test helper of contract 15.
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
 * DELETE (contract 5): personal data removed from the record, its storefront, its verifications,
 * its onboarding links and every stored event about them; its listings removed (seller_erased).
 * Erasing an erased seller answers the record again and changes nothing.
 */
export async function eraseSeller(deps: PartyDeps, scope: Scope, id: string): Promise<Seller> {
  return deps.db.transaction(async (tx) => {
    const row = await lockSeller(tx, scope, id);
    if (row.erased_at !== null) return serializeSeller(row);
    const now = await modeNow(tx, deps.clock, scope);
    await queries.eraseSellerRow(tx, scope, id, now);
    await queries.deleteStorefront(tx, scope, id);
    await deleteOnboardingLinksOfSeller(tx, scope, id);
    const verificationIds = await eraseVerificationsOfSeller(tx, scope, id);
    await redactStoredEvents(tx, scope, [id], SELLER_REDACTION);
    await redactStoredEvents(tx, scope, verificationIds, VERIFICATION_REDACTION);
    await redactStoredResponses(tx, scope, [id], SELLER_REDACTION);
    await redactStoredResponses(tx, scope, verificationIds, VERIFICATION_REDACTION);
    await removeListingsOfErasedSeller(tx, scope, id, now);
    const seller = await reload(tx, scope, id);
    await emitEvent(tx, scope, now, 'seller.erased', seller);
    return seller;
  });
}
