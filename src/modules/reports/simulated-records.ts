// The simulated processor's books (simulated_processor_records): what it charged, refunded,
// transferred, reversed and withdrew for card disputes, kept apart from the ledger so the
// reconciliation report compares two records, as it does with Stripe's. The simulated driver
// writes through the recorder the payments module puts in its call context (the driver never
// opens the database itself); the simulated processor's test helpers (charges, dashboard refunds,
// card disputes) write in their own transaction through recordSimulatedMovement.
import type { Queryable } from '../../db/db.js';
import { modeNow, type Scope } from '../../scope.js';
import type { Deps } from '../../contracts/deps.js';
import type { BalanceRecord, SimulatedRecords } from '../../contracts/processor.js';
import { insertSimulatedRecord, selectSimulatedRecords } from './queries.js';

const PAGE = 500;

/** The books of one mode, for a call context: records are stamped with the mode's clock. */
export function simulatedRecords(deps: Pick<Deps, 'db' | 'clock'>, scope: Scope): SimulatedRecords {
  return {
    async record(record) {
      const now = await modeNow(deps.db, deps.clock, scope);
      await insertSimulatedRecord(deps.db, scope, { ...record, created: now });
    },
    async *list(range) {
      let after: { created: Date; reference: string } | null = null;
      for (;;) {
        const batch = await selectSimulatedRecords(deps.db, scope, { ...range, after, limit: PAGE });
        yield* batch;
        if (batch.length < PAGE) return;
        const last = batch[batch.length - 1]!;
        after = { created: last.created, reference: last.reference };
      }
    },
  };
}

/** A movement the simulated processor's helpers report, in the caller's transaction. */
export async function recordSimulatedMovement(q: Queryable, scope: Scope, record: Omit<BalanceRecord, 'created'>, now: Date): Promise<void> {
  await insertSimulatedRecord(q, scope, { ...record, created: now });
}
