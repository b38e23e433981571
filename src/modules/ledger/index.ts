// The ledger's public surface (docs/ledger.md): payments post entries in their own transactions;
// reports read an interval's lines in keyset batches and the accounts' balances at a time; a
// release (or a payout) recovers what its seller owes first (recoverOwed).
export {
  accountBalancesAt,
  availableLinesOf,
  findDisputeEntryTypes,
  findOwed,
  findPaymentPositions,
  ledgerLinesBetween,
  positiveAvailableBalances,
  postEntries,
  recoverOwed,
  restoreRecovered,
  retrieveSellerBalance,
} from './operations.js';
export { SellerBalance } from './schemas.js';
export { SELLER_DEBT_WRITE_OFF_TIMER } from './seller-debt.js';
export type { RecoverOwed, RecoveryFrom, RecoverySource, RestoreRecovered } from './seller-debt.js';
export { availableAccount, ENTRY_TYPES, FIXED_ACCOUNTS, imbalance, PAYOUT_ENTRY_TYPES, sellerAccount, sideOf } from './entries.js';
export type { Account, EntryLine, EntryType, FixedAccount, NewEntry, Side } from './entries.js';
export type { AccountBalanceRow, AvailableBalanceRow, LedgerLineRow, LinesBetween } from './queries.js';
export { checkAllEntries, checkNewEntries, INVARIANT_CHECKS, markChecked, paymentIdsOfRange, recordViolation } from './invariants.js';
export type { CheckedRange, InvariantCheck, UnbalancedEntry } from './invariants.js';
