// The ledger's public surface (docs/ledger.md): payments post entries in their own transactions;
// reports read an interval's lines in keyset batches and the accounts' balances at a time.
export { accountBalancesAt, findDisputeEntryTypes, findPaymentPositions, ledgerLinesBetween, postEntries } from './operations.js';
export { ENTRY_TYPES, FIXED_ACCOUNTS, imbalance, sellerAccount, sideOf } from './entries.js';
export type { Account, EntryLine, EntryType, FixedAccount, NewEntry, Side } from './entries.js';
export type { AccountBalanceRow, LedgerLineRow, LinesBetween } from './queries.js';
export { checkAllEntries, checkNewEntries, INVARIANT_CHECKS, markChecked, paymentIdsOfRange, recordViolation } from './invariants.js';
export type { CheckedRange, InvariantCheck, UnbalancedEntry } from './invariants.js';
