// The card dispute state machine as one table (docs/state-machines.md). A card dispute is the
// processor's chargeback: its `status` is the processor's own (needs_response, under_review, won,
// lost, warning_closed, …), recorded as it gives it, so the table's states are the two phases that
// change what the service does: open (a checkout's share releases wait) and closed (they resume;
// checkout-charge.ts names the closed statuses). Every report that changes a card dispute takes one
// row, by the processor; the service takes none. Created disputes start in either phase.
import type { Tx } from '../../db/db.js';
import { defineMachine, emitMove, move, type Row } from '../../domain/state-machine.js';
import { previousAttributes } from '../../outbox/emit.js';
import type { Scope } from '../../scope.js';
import { cardDisputeOpen } from './checkout-charge.js';
import type { CardDisputeRow } from './queries.js';
import { serializeCardDispute } from './serialize.js';

export const CARD_DISPUTE_PHASES = ['open', 'closed'] as const;
export type CardDisputePhase = (typeof CARD_DISPUTE_PHASES)[number];

export const CARD_DISPUTE_MACHINE = defineMachine({
  subject: 'card dispute',
  states: CARD_DISPUTE_PHASES,
  initial: ['open', 'closed'],
  operations: { update: 'be updated', close: 'close', reopen: 'reopen' },
  rows: [
    // Amount, reason, evidence due date or a status of the same phase changed.
    { from: ['open'], operation: 'update', who: ['processor'], to: 'open', emits: ['card_dispute.updated'] },
    { from: ['closed'], operation: 'update', who: ['processor'], to: 'closed', emits: ['card_dispute.updated'] },
    { from: ['open'], operation: 'close', who: ['processor'], to: 'closed', emits: ['card_dispute.updated'] },
    // The processor's word is recorded whatever came before: a closed dispute reported open again is.
    { from: ['closed'], operation: 'reopen', who: ['processor'], to: 'open', emits: ['card_dispute.updated'] },
  ],
});

export type CardDisputeOperation = keyof typeof CARD_DISPUTE_MACHINE.operations;

/** The phase of a processor status. */
export function cardDisputePhase(status: string): CardDisputePhase {
  return cardDisputeOpen(status) ? 'open' : 'closed';
}

/** The table's row for a reported change from status `before` to `after` (409 invalid_state when it has none). */
export function cardDisputeMove(before: string, after: string): Row<CardDisputePhase, CardDisputeOperation, never> {
  const from = cardDisputePhase(before);
  const to = cardDisputePhase(after);
  const operation: CardDisputeOperation = from === to ? 'update' : to === 'closed' ? 'close' : 'reopen';
  return move(CARD_DISPUTE_MACHINE, from, operation, 'processor');
}

/** Emits the events of the row that moved a card dispute from `before` to `after` (the updated row). */
export async function emitCardDisputeMove(tx: Tx, scope: Scope, now: Date, before: CardDisputeRow, after: CardDisputeRow): Promise<void> {
  const object = serializeCardDispute(after);
  await emitMove(tx, scope, now, cardDisputeMove(before.status, after.status), object, previousAttributes(serializeCardDispute(before), object));
}
