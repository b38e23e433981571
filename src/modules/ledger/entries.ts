// The shape of the ledger's journal entries (docs/ledger.md): the accounts, their normal sides,
// the entry types, and the one rule every entry obeys (its lines balance).
export type Side = 'debit' | 'credit';

/**
 * The fixed accounts; a seller's is `seller:<seller id>` (pending: owed, not available yet) and,
 * for a seller paid on a schedule, `seller_available:<seller id>` (available: due in the next payout).
 */
export const FIXED_ACCOUNTS = ['buyer_funds', 'disputes', 'seller_receivables', 'platform_losses', 'platform_fees', 'transfers_out', 'refunds_out'] as const;
export type FixedAccount = (typeof FIXED_ACCOUNTS)[number];
export type Account = FixedAccount | `seller:${string}` | `seller_available:${string}`;

const DEBIT_ACCOUNTS: ReadonlySet<string> = new Set(['buyer_funds', 'disputes', 'seller_receivables', 'platform_losses']);

/** An account's normal side: debit for what the platform holds or bears, credit for what it owes or earned. */
export function sideOf(account: Account): Side {
  return DEBIT_ACCOUNTS.has(account) ? 'debit' : 'credit';
}

export const sellerAccount = (sellerId: string): Account => `seller:${sellerId}`;
/** What a scheduled seller may be paid in the next payout (docs/ledger.md, "Available balance"). */
export const availableAccount = (sellerId: string): Account => `seller_available:${sellerId}`;

export function isAccount(text: string): text is Account {
  return (FIXED_ACCOUNTS as readonly string[]).includes(text) || /^seller(_available)?:sel_[0-9a-z]{26}$/.test(text);
}

export const ENTRY_TYPES = [
  'charge',
  'charge_reversal',
  'platform_fee',
  'platform_fee_refund',
  'refund',
  'refund_failure',
  'transfer',
  'transfer_reversal',
  'transfer_failure',
  'shortfall',
  'shortfall_reversal',
  'seller_debt',
  'seller_debt_reversal',
  'recovery',
  'recovery_reversal',
  'seller_debt_write_off',
  'dispute',
  'dispute_won',
  'dispute_lost',
  'share_available',
  'payout',
  'payout_failure',
  'payout_cancellation',
] as const;
/** The payouts' own entries: a payout sent, and the money back to available when it fails or is canceled. */
export const PAYOUT_ENTRY_TYPES = ['payout', 'payout_failure', 'payout_cancellation'] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

export interface EntryLine {
  account: Account;
  /** Signed minor units, positive when the account's balance grows; never 0. */
  amount: number;
}

export interface NewEntry {
  type: EntryType;
  currency: string;
  /** What caused it: pay_…, ref_…, cdp_…, po_…, or the seller (sel_…) for a write-off of their debt. */
  sourceId: string;
  /** The payment whose money it moves; null for a payout's entries (a seller's balance), a write-off, a recovery by something else than a release. */
  paymentId: string | null;
  orderId: string | null;
  sellerId: string | null;
  /** The processor's id of the movement (charge or intent, refund, transfer, reversal, dispute). */
  processorRef: string | null;
  lines: readonly EntryLine[];
}

/** Debits minus credits of the lines, in the signed convention: 0 when the entry balances. */
export function imbalance(lines: readonly EntryLine[]): number {
  return lines.reduce((sum, line) => sum + (sideOf(line.account) === 'debit' ? line.amount : -line.amount), 0);
}

/** A bug of the code that posts: an entry must never be written unbalanced (not a client's error). */
export class LedgerEntryError extends Error {
  override name = 'LedgerEntryError';
}

/** Refuses an entry of fewer than two lines, a zero line, or lines that do not balance. */
export function checkEntry(entry: NewEntry): void {
  if (entry.lines.length < 2) throw new LedgerEntryError(`A journal entry has two lines or more (${entry.type} has ${entry.lines.length}).`);
  for (const line of entry.lines) {
    if (!Number.isSafeInteger(line.amount) || line.amount === 0) throw new LedgerEntryError(`A ledger line's amount is a non-zero integer (${entry.type} on ${line.account}: ${line.amount}).`);
  }
  const off = imbalance(entry.lines);
  if (off !== 0) throw new LedgerEntryError(`The journal entry ${entry.type} of ${entry.sourceId} does not balance (off by ${off}).`);
}
