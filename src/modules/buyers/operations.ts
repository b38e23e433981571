// Buyer operations. Each owns its transaction and emits its events
// in it.
import { mapUniqueViolations } from '../../db/pg-errors.js';
import type { Queryable, Tx } from '../../db/db.js';
import { pageRequest, toList, type ListEnvelope } from '../../db/paging.js';
import { errors } from '../../errors.js';
import { emitEvent, previousAttributes } from '../../outbox/emit.js';
import { newId } from '../../ids.js';
import { modeNow, type Scope } from '../../scope.js';
import type { OperationContext } from '../../contracts/context.js';
import { eraseBuyerData } from '../../contracts/erasure.js';
import { PARTY_REDACTION } from '../../contracts/redaction.js';
import { applyPartyUpdate, partyFieldsOfCreate } from '../parties/index.js';
import * as queries from './queries.js';
import type { Buyer, CreateBuyerBody, ListBuyersQuery, UpdateBuyerBody } from './schemas.js';
import { serializeBuyer } from './serialize.js';

const externalIdTaken = () => errors.exists('A buyer with this external_id already exists.', 'external_id');

/** The buyer, locked for the rest of the transaction; 404 when it is not in this scope. */
export async function requireBuyer(tx: Tx, scope: Scope, id: string): Promise<queries.BuyerRow> {
  const row = await queries.lockBuyer(tx, scope, id);
  if (!row) throw errors.missing('buyer', id);
  return row;
}

/** The buyer share-locked, or null when it is not in this scope (for other modules' transactions). */
export function findBuyerForShare(tx: Tx, scope: Scope, id: string): Promise<queries.BuyerRow | null> {
  return queries.lockBuyerShared(tx, scope, id);
}

export async function createBuyer(ctx: OperationContext, body: CreateBuyerBody): Promise<Buyer> {
  const { scope } = ctx;
  return mapUniqueViolations(
    () =>
      ctx.db.transaction(async (tx) => {
        const now = await modeNow(tx, ctx.clock, scope);
        const buyer = serializeBuyer(await queries.insertBuyer(tx, scope, newId('buyer'), partyFieldsOfCreate(body), now));
        await emitEvent(tx, scope, now, 'buyer.created', buyer);
        return buyer;
      }),
    { buyers_external_id_key: externalIdTaken },
  );
}

export async function retrieveBuyer(ctx: OperationContext, id: string): Promise<Buyer> {
  const row = await queries.selectBuyer(ctx.db, ctx.scope, id);
  if (!row) throw errors.missing('buyer', id);
  return serializeBuyer(row);
}

export async function listBuyers(ctx: OperationContext, query: ListBuyersQuery): Promise<ListEnvelope<Buyer>> {
  const page = pageRequest(query, 'buyer');
  const rows = await queries.selectBuyers(ctx.db, ctx.scope, page, { externalId: query.external_id, name: query.name, email: query.email });
  return toList(rows.map(serializeBuyer), page.limit);
}

/** PATCH: changes the fields given; an update that changes nothing writes nothing and emits nothing. */
export async function updateBuyer(ctx: OperationContext, id: string, body: UpdateBuyerBody): Promise<Buyer> {
  const { scope } = ctx;
  return mapUniqueViolations(
    () =>
      ctx.db.transaction(async (tx) => {
        const row = await requireBuyer(tx, scope, id);
        if (row.erased_at !== null) throw errors.invalidState('buyer', 'erased', 'be updated');
        const before = serializeBuyer(row);
        const fields = applyPartyUpdate(row, body);
        if (fields === null) return before;
        const now = await modeNow(tx, ctx.clock, scope);
        const after = serializeBuyer(await queries.updateBuyerParty(tx, scope, id, fields, now));
        await emitEvent(tx, scope, now, 'buyer.updated', after, previousAttributes(before, after));
        return after;
      }),
    { buyers_external_id_key: externalIdTaken },
    { deadlock: externalIdTaken },
  );
}

/**
 * DELETE: personal data removed from the record and everything other modules keep
 * about the buyer (src/contracts/erasure.ts: every stored event and answer about it). Erasing an
 * erased buyer answers the record again and changes nothing.
 */
export async function eraseBuyer(ctx: OperationContext, id: string): Promise<Buyer> {
  const { scope } = ctx;
  return ctx.db.transaction(async (tx) => {
    const row = await requireBuyer(tx, scope, id);
    if (row.erased_at !== null) return serializeBuyer(row);
    const now = await modeNow(tx, ctx.clock, scope);
    const buyer = serializeBuyer(await queries.updateBuyerErased(tx, scope, id, now));
    await eraseBuyerData(ctx.hooks.erasure, tx, scope, id, now, { objectIds: [id], redaction: PARTY_REDACTION });
    await emitEvent(tx, scope, now, 'buyer.erased', buyer);
    return buyer;
  });
}

/** The buyer without a lock, or null: for rules read at one instant (an erased buyer cannot start orders). */
export function findBuyerStanding(q: Queryable, scope: Scope, id: string) {
  return queries.selectBuyerStanding(q, scope, id);
}
