// The ledger module's manifest (src/contracts/wiring.ts): its routes, the write-off timer of sellers' debts, and the counter of its invariant violations (the
// invariants job itself is the payments module's: it compares payments with their entries).
import type { ModuleManifest } from '../../contracts/wiring.js';
import { LEDGER_ID_PREFIXES } from './declarations.js';
import { ledgerViolationsCounter } from './invariants.js';
import { sellerDebtWriteOffTimer } from './operations.js';
import { ledgerRoutes } from './routes/index.js';
import { SELLER_DEBT_WRITE_OFF_TIMER } from './seller-debt.js';

export const ledgerModule: ModuleManifest = {
  name: 'ledger',
  tables: ['ledger_lines', 'ledger_invariant_state', 'ledger_invariant_violations'],
  idPrefixes: LEDGER_ID_PREFIXES,
  routes: { secret: ledgerRoutes },
  counters: [ledgerViolationsCounter],
  timers: { [SELLER_DEBT_WRITE_OFF_TIMER]: sellerDebtWriteOffTimer },
  tags: [{ name: 'Ledger', description: 'The double-entry ledger of every money movement (balance transactions) and the sellers\' balances computed from it (docs/ledger.md).', rank: 140 }],
};
