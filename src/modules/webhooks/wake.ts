// The dispatcher's name, which is also the wake-up topic of deliveries written in this process: a
// commit that writes due deliveries wakes this process's dispatcher (src/workers/wake.ts); other
// processes find them by polling (dispatcher.ts).
import type { Tx } from '../../db/db.js';
import { signalOnCommit } from '../../workers/wake.js';

export const DISPATCHER = 'webhook_dispatcher';

/** Wakes this process's dispatcher once the transaction commits. */
export function signalDeliveriesOnCommit(tx: Tx): void {
  signalOnCommit(tx, DISPATCHER);
}
