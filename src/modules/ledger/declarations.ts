// What the ledger module declares for the composition root to assemble (its manifest lists it): the
// prefixes of its ids. The `declare module`s make each kind a checked IdKind.


export const LEDGER_ID_PREFIXES = {
  balanceTransaction: 'btx',
  journalEntry: 'jrn',
} as const;

type LedgerIdPrefixes = typeof LEDGER_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends LedgerIdPrefixes {}
}
