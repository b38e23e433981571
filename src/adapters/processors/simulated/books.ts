// The simulated processor's books (simulated_processor_records, migration 0024, the one table it
// owns): what it charged, refunded, transferred, reversed and withdrew for card disputes, kept
// apart from the ledger so the reconciliation report compares two records, as it does with
// Stripe's. The driver writes what its calls move through the call context's books (a call runs
// with no transaction open); the test helpers (charges, dashboard refunds, card disputes) write in
// their own transaction through `recordMovement`.
import type { Clock } from '../../../clock.js';
import type { Db, Queryable } from '../../../db/db.js';
import { modeNow, type Scope } from '../../../scope.js';
import type { BalanceRecord, SimulatedRecords } from '../../../contracts/processor.js';

/** The tables the simulated processor owns. */
export const SIMULATED_PROCESSOR_TABLES = ['simulated_processor_records'] as const;

const PAGE = 500;

/** One record of the books; a retried call's record (same reference) is kept once. */
async function insertRecord(q: Queryable, scope: Scope, record: BalanceRecord): Promise<void> {
  await q.query(
    `INSERT INTO simulated_processor_records (marketplace_id, mode, reference, type, amount, currency, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
    [scope.marketplaceId, scope.mode, record.reference, record.type, record.amount, record.currency.toLowerCase(), record.created],
  );
}

/** One batch of the records of [from, to), keyset by (created_at, reference). */
async function selectRecords(
  q: Queryable,
  scope: Scope,
  query: { from: Date; to: Date; after: { created: Date; reference: string } | null; limit: number },
): Promise<BalanceRecord[]> {
  const after = query.after;
  const rows = await q.query<{ reference: string; type: BalanceRecord['type']; amount: number; currency: string; created_at: Date }>(
    `SELECT reference, type, amount, currency, created_at FROM simulated_processor_records
      WHERE marketplace_id = $1 AND mode = $2 AND created_at >= $3 AND created_at < $4
        AND ($5::timestamptz IS NULL OR (created_at, reference) > ($5::timestamptz, $6::text))
      ORDER BY created_at, reference LIMIT $7`,
    [scope.marketplaceId, scope.mode, query.from, query.to, after?.created ?? null, after?.reference ?? null, query.limit],
  );
  return rows.map((row) => ({ reference: row.reference, type: row.type, amount: Number(row.amount), currency: row.currency, created: new Date(row.created_at) }));
}

/** The books of one mode, for a call context: records are stamped with the mode's clock. */
export function simulatedRecords(deps: { db: Db; clock: Clock }, scope: Scope): SimulatedRecords {
  return {
    async record(record) {
      const now = await modeNow(deps.db, deps.clock, scope);
      await insertRecord(deps.db, scope, { ...record, created: now });
    },
    async *list(range) {
      let after: { created: Date; reference: string } | null = null;
      for (;;) {
        const batch = await selectRecords(deps.db, scope, { ...range, after, limit: PAGE });
        yield* batch;
        if (batch.length < PAGE) return;
        const last = batch[batch.length - 1]!;
        after = { created: last.created, reference: last.reference };
      }
    },
  };
}

/** A movement the simulated processor's test helpers report, in the caller's transaction. */
export async function recordMovement(q: Queryable, scope: Scope, record: Omit<BalanceRecord, 'created'>, now: Date): Promise<void> {
  await insertRecord(q, scope, { ...record, created: now });
}
