// The periodic job `ledger.invariants` (docs/ledger.md, "Invariants"): every journal entry
// balances, every payment holding an order's money has exactly its target positions in the ledger,
// and every card dispute has the entries its status calls for. A violation is recorded (counted by
// the ledger_invariant_violations metric) and logged at error level: never silent. It lives here,
// beside the payments it compares, since the ledger module does not know payments.
import type { PeriodicJob, PeriodicLog } from '../../contracts/background.js';
import type { Deps } from '../../contracts/deps.js';
import type { Scope } from '../../scope.js';
import { checkAllEntries, checkNewEntries, markChecked, paymentIdsOfRange, recordViolation, type InvariantCheck } from '../ledger/index.js';
import { cardDisputeLedgerDrift, paymentLedgerDrift } from './ledger-sync.js';
import * as queries from './queries.js';

/** Lines looked at by one incremental pass (the rest wait for the next round, a minute later). */
const NEW_LINES_PER_PASS = 5000;
const BATCH = 500;
/** The full pass (every entry, payment and card dispute) runs at a process's start and then this often. */
export const FULL_PASS_EVERY_MS = 60 * 60 * 1000;

export interface InvariantReport {
  checked: { entries: 'new' | 'all'; payments: number; cardDisputes: number };
  violations: number;
}

async function violation(deps: Deps, log: PeriodicLog, scope: Scope, check: InvariantCheck, subject: string, detail: string): Promise<void> {
  const isNew = await recordViolation(deps.db, scope, check, subject, detail, new Date(deps.clock.nowMs()));
  log.error({ check, marketplace: scope.marketplaceId, mode: scope.mode, subject, detail, first_seen: isNew }, `ledger invariant violated: ${check}`);
}

async function checkPayment(deps: Deps, log: PeriodicLog, scope: Scope, paymentId: string): Promise<number> {
  let found = 0;
  const drift = await paymentLedgerDrift(deps.db, scope, paymentId);
  if (drift.length > 0) {
    found += 1;
    const detail = drift.map((entry) => `${entry.type} ${entry.lines[0]!.account} ${entry.lines[0]!.amount}`).join('; ');
    await violation(deps, log, scope, 'payment_positions', paymentId, `the ledger is off its targets by: ${detail}`);
  }
  return found;
}

async function checkCardDispute(deps: Deps, log: PeriodicLog, scope: Scope, dispute: queries.CardDisputeRow): Promise<number> {
  const drift = await cardDisputeLedgerDrift(deps.db, scope, dispute);
  if (drift.missing.length === 0 && drift.unexpected.length === 0) return 0;
  await violation(deps, log, scope, 'card_dispute_entries', dispute.id, `status ${dispute.status}: missing [${drift.missing.join(', ')}], unexpected [${drift.unexpected.join(', ')}]`);
  return 1;
}

/**
 * One round. Incremental: the entries of lines newer than each mode's checkpoint, and the payments
 * (and their card disputes) those lines belong to. Full: every entry, payment and card dispute.
 */
export async function checkLedgerInvariants(deps: Deps, log: PeriodicLog, options: { full: boolean }): Promise<InvariantReport> {
  const report: InvariantReport = { checked: { entries: options.full ? 'all' : 'new', payments: 0, cardDisputes: 0 }, violations: 0 };
  const { unbalanced: fresh, ranges } = await checkNewEntries(deps.db, NEW_LINES_PER_PASS);
  const unbalanced = options.full ? await checkAllEntries(deps.db) : fresh;
  for (const entry of unbalanced) {
    await violation(deps, log, entry.scope, 'entry_balances', entry.entryId, `debits − credits = ${entry.imbalance}`);
    report.violations += 1;
  }
  if (options.full) {
    let after: queries.ScopedId | null = null;
    for (let batch = await queries.selectOrderPartPaymentKeys(deps.db, after, BATCH); batch.length > 0; batch = await queries.selectOrderPartPaymentKeys(deps.db, after, BATCH)) {
      for (const key of batch) report.violations += await checkPayment(deps, log, { marketplaceId: key.marketplace_id, mode: key.mode }, key.id);
      report.checked.payments += batch.length;
      after = batch[batch.length - 1]!;
    }
    after = null;
    for (let batch = await queries.selectCardDisputeKeys(deps.db, after, BATCH); batch.length > 0; batch = await queries.selectCardDisputeKeys(deps.db, after, BATCH)) {
      for (const key of batch) {
        const scope: Scope = { marketplaceId: key.marketplace_id, mode: key.mode };
        const dispute = await queries.selectCardDispute(deps.db, scope, key.id);
        if (dispute) report.violations += await checkCardDispute(deps, log, scope, dispute);
      }
      report.checked.cardDisputes += batch.length;
      after = batch[batch.length - 1]!;
    }
  } else {
    for (const range of ranges) {
      for (const paymentId of await paymentIdsOfRange(deps.db, range)) {
        report.violations += await checkPayment(deps, log, range.scope, paymentId);
        report.checked.payments += 1;
        for (const dispute of await queries.selectCardDisputesOfPayment(deps.db, range.scope, paymentId)) {
          report.violations += await checkCardDispute(deps, log, range.scope, dispute);
          report.checked.cardDisputes += 1;
        }
      }
    }
  }
  await markChecked(deps.db, ranges);
  return report;
}

export const ledgerInvariantsJob: PeriodicJob = {
  name: 'ledger.invariants',
  everyMs: 60_000,
  async run(deps, log, memory) {
    // The worker's memory of this job: its first run in a process is a full pass.
    const lastFullPassAt = memory.get('lastFullPassAt') ?? Number.NEGATIVE_INFINITY;
    const full = performance.now() - lastFullPassAt >= FULL_PASS_EVERY_MS;
    await checkLedgerInvariants(deps, log, { full });
    if (full) memory.set('lastFullPassAt', performance.now());
  },
};
