// The ledger's side of the invariants job (docs/ledger.md, "Invariants"): which entries do not
// balance, how far each mode was checked, and the violations found, which GET /metrics counts.
import type { CounterSource } from '../../contracts/background.js';
import type { Db, Queryable } from '../../db/db.js';
import type { Scope } from '../../scope.js';
import * as queries from './queries.js';

export const INVARIANT_CHECKS = ['entry_balances', 'payment_positions', 'card_dispute_entries'] as const;
export type InvariantCheck = (typeof INVARIANT_CHECKS)[number];

export interface UnbalancedEntry {
  scope: Scope;
  entryId: string;
  imbalance: number;
}

export interface CheckedRange {
  scope: Scope;
  /** Lines after this id and up to `upToId` were looked at in this pass. */
  afterId: string;
  upToId: string;
}

const toUnbalanced = (row: queries.UnbalancedEntryRow): UnbalancedEntry => ({
  scope: { marketplaceId: row.marketplace_id, mode: row.mode },
  entryId: row.entry_id,
  imbalance: Number(row.imbalance),
});

/**
 * The incremental pass: the entries of up to `limit` lines newer than each mode's checkpoint, the
 * unbalanced ones among them, and each mode's checkpoint moved past them. A line whose transaction
 * committed after a later line was checked is left to the full pass.
 */
export async function checkNewEntries(db: Db, limit: number): Promise<{ unbalanced: UnbalancedEntry[]; ranges: CheckedRange[] }> {
  const found = await queries.selectNewUnbalancedEntries(db, limit);
  const ranges: CheckedRange[] = [];
  for (const row of found.newest) {
    const scope: Scope = { marketplaceId: row.marketplace_id, mode: row.mode };
    ranges.push({ scope, afterId: await queries.selectCheckedLineId(db, scope), upToId: row.id });
  }
  return { unbalanced: found.unbalanced.map(toUnbalanced), ranges };
}

/** Moves each mode's checkpoint past the lines of this pass (after their payments were checked). */
export async function markChecked(db: Db, ranges: readonly CheckedRange[]): Promise<void> {
  for (const range of ranges) await db.transaction((tx) => queries.upsertCheckedLineId(tx, range.scope, range.upToId));
}

/** The full pass over every entry of every marketplace and mode. */
export async function checkAllEntries(q: Queryable): Promise<UnbalancedEntry[]> {
  return (await queries.selectAllUnbalancedEntries(q)).map(toUnbalanced);
}

/** The payments whose lines a pass looked at. */
export function paymentIdsOfRange(q: Queryable, range: CheckedRange): Promise<string[]> {
  return queries.selectPaymentIdsWithLinesAfter(q, range.scope, range.afterId, range.upToId);
}

/** Records a violation (once per check and subject); answers whether it was new. */
export function recordViolation(db: Db, scope: Scope, check: InvariantCheck, subjectId: string, detail: string, now: Date): Promise<boolean> {
  return db.transaction((tx) => queries.insertInvariantViolation(tx, scope, check, subjectId, detail, now));
}

/** `ledger_invariant_violations{check}` of GET /metrics: the violations recorded so far. */
export const ledgerViolationsCounter: CounterSource = {
  name: 'ledger_invariant_violations',
  help: 'Ledger invariant violations found by the ledger.invariants job, by check (entry_balances, payment_positions, card_dispute_entries); each wrong subject counts once.',
  labelName: 'check',
  async read(db) {
    const counts = await queries.selectViolationCounts(db);
    return INVARIANT_CHECKS.map((check) => ({ label: check, value: counts.find((row) => row.check_name === check)?.count ?? 0 }));
  },
};
