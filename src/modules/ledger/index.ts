// The ledger's public surface (docs/ledger.md): payments post entries in their own transactions;
// reports read an interval's lines in keyset batches and the accounts' balances at a time; a
// release (or a payout) recovers what its seller owes first (recoverOwed).
export { accountBalancesAt, findDisputeEntryTypes, findOwed, findPaymentPositions, ledgerLinesBetween, postEntries, recoverOwed, restoreRecovered } from './operations.js';
export { SELLER_DEBT_WRITE_OFF_TIMER } from './seller-debt.js';
export type { RecoverOwed, RecoverySource } from './seller-debt.js';
export { ENTRY_TYPES, FIXED_ACCOUNTS, imbalance, sellerAccount, sideOf } from './entries.js';
export type { Account, EntryLine, EntryType, FixedAccount, NewEntry, Side } from './entries.js';
export type { AccountBalanceRow, LedgerLineRow, LinesBetween } from './queries.js';
export { checkAllEntries, checkNewEntries, INVARIANT_CHECKS, markChecked, paymentIdsOfRange, recordViolation } from './invariants.js';
export type { CheckedRange, InvariantCheck, UnbalancedEntry } from './invariants.js';
