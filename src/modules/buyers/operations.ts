// Buyer operations (interface.md 4.3, contract 5). Each owns its transaction and emits its events
// in it.
import { mapUniqueViolations } from '../../db/errors.js';
import type { Tx } from '../../db/db.js';
import { errors } from '../../errors.js';
import { emitEvent, previousAttributes } from '../../events/emit.js';
import { toList, type ListEnvelope, type PageRequest } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import { modeNow, type Scope } from '../../scope.js';
import type { PartyDeps } from '../parties/deps.js';
import { PARTY_REDACTION, redactStoredEvents, redactStoredResponses } from '../parties/erasure.js';
import { applyPartyUpdate, partyFieldsOfCreate, type PartyCreateBody, type PartyUpdateBody } from '../parties/schemas.js';
import * as queries from './queries.js';
import type { Buyer } from './schemas.js';
import { serializeBuyer } from './serialize.js';

const externalIdTaken = () => errors.exists('A buyer with this external_id already exists.', 'external_id');

/** The buyer, locked for the rest of the transaction; 404 when it is not in this scope. */
export async function lockBuyer(tx: Tx, scope: Scope, id: string): Promise<queries.BuyerRow> {
  const row = await queries.findBuyer(tx, scope, id, true);
  if (!row) throw errors.missing('buyer', id);
  return row;
}

export async function createBuyer(deps: PartyDeps, scope: Scope, body: PartyCreateBody): Promise<Buyer> {
  return mapUniqueViolations(
    () =>
      deps.db.transaction(async (tx) => {
        const now = await modeNow(tx, deps.clock, scope);
        const buyer = serializeBuyer(await queries.insertBuyer(tx, scope, newId('buyer'), partyFieldsOfCreate(body), now));
        await emitEvent(tx, scope, now, 'buyer.created', buyer);
        return buyer;
      }),
    { buyers_external_id_key: externalIdTaken },
  );
}

export async function retrieveBuyer(deps: PartyDeps, scope: Scope, id: string): Promise<Buyer> {
  const row = await queries.findBuyer(deps.db, scope, id);
  if (!row) throw errors.missing('buyer', id);
  return serializeBuyer(row);
}

export async function listBuyers(deps: PartyDeps, scope: Scope, page: PageRequest, filter: { externalId?: string }): Promise<ListEnvelope<Buyer>> {
  const rows = await queries.listBuyers(deps.db, scope, page, filter);
  return toList(rows.map(serializeBuyer), page.limit);
}

/** PATCH: changes the fields given; an update that changes nothing writes nothing and emits nothing. */
export async function updateBuyer(deps: PartyDeps, scope: Scope, id: string, body: PartyUpdateBody): Promise<Buyer> {
  return mapUniqueViolations(
    () =>
      deps.db.transaction(async (tx) => {
        const row = await lockBuyer(tx, scope, id);
        if (row.erased_at !== null) throw errors.invalidState('buyer', 'erased', 'be updated');
        const before = serializeBuyer(row);
        const fields = applyPartyUpdate(row, body);
        if (fields === null) return before;
        const now = await modeNow(tx, deps.clock, scope);
        const after = serializeBuyer(await queries.updateBuyerParty(tx, scope, id, fields, now));
        await emitEvent(tx, scope, now, 'buyer.updated', after, previousAttributes(before, after));
        return after;
      }),
    { buyers_external_id_key: externalIdTaken },
    { deadlock: externalIdTaken },
  );
}

/**
 * DELETE (contract 5): personal data removed from the record and from every stored event about
 * the buyer. Erasing an erased buyer answers the record again and changes nothing.
 */
export async function eraseBuyer(deps: PartyDeps, scope: Scope, id: string): Promise<Buyer> {
  return deps.db.transaction(async (tx) => {
    const row = await lockBuyer(tx, scope, id);
    if (row.erased_at !== null) return serializeBuyer(row);
    const now = await modeNow(tx, deps.clock, scope);
    const buyer = serializeBuyer(await queries.eraseBuyerRow(tx, scope, id, now));
    await redactStoredEvents(tx, scope, [id], PARTY_REDACTION);
    await redactStoredResponses(tx, scope, [id], PARTY_REDACTION);
    await emitEvent(tx, scope, now, 'buyer.erased', buyer);
    return buyer;
  });
}
