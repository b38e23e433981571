// reconciliation: the ledger's processor movements of the interval against the processor's own
// records (Stripe's balance transactions and transfers, or the simulated processor's books),
// matched by the processor's reference and type. Every difference is one row with both sides:
// missing_at_processor (only in the ledger), missing_in_ledger (only at the processor),
// amount_differs (both, another amount or currency). A report with no rows is reconciled.
// Memory holds one sum per processor object of the interval (both sides), not the lines.
import type { BalanceRecord } from '../../../contracts/processor.js';
import { processorCallContext } from '../../../contracts/processor-calls.js';
import { loadProcessorCredentials } from '../../marketplaces/index.js';
import type { LedgerLineRow } from '../../ledger/index.js';
import { payoutTransfersBetween } from '../../payouts/index.js';
import { ledgerPages } from './ledger-lines.js';
import type { ReportBuilder } from './types.js';

type Side = { amount: number; currency: string };

/** The processor movement a ledger line stands for, with its amount as the processor states it (positive). */
export function movementOf(line: LedgerLineRow): { type: BalanceRecord['type']; amount: number } | null {
  if (line.processor_ref === null) return null;
  switch (`${line.account} ${line.type}`) {
    case 'buyer_funds charge':
    case 'buyer_funds charge_reversal':
      return { type: 'charge', amount: line.amount };
    case 'refunds_out refund':
    case 'refunds_out refund_failure':
      return { type: 'refund', amount: line.amount };
    case 'transfers_out transfer':
    case 'transfers_out transfer_failure':
      return { type: 'transfer', amount: line.amount };
    case 'transfers_out transfer_reversal':
      return { type: 'transfer_reversal', amount: -line.amount };
    case 'disputes dispute':
      return { type: 'dispute', amount: line.amount };
    default:
      return null;
  }
}

function add(map: Map<string, Side>, key: string, amount: number, currency: string): void {
  const side = map.get(key);
  if (side) side.amount += amount;
  else map.set(key, { amount, currency: currency.toLowerCase() });
}

export const reconciliation: ReportBuilder = {
  header: ['reference', 'type', 'kind', 'ours_amount', 'ours_currency', 'theirs_amount', 'theirs_currency'],
  async build({ ctx, scope, report }, csv) {
    const range = { from: report.interval_start, to: report.interval_end };
    const ours = new Map<string, Side>();
    for await (const page of ledgerPages(ctx.db, scope, range)) {
      for (const line of page) {
        const movement = movementOf(line);
        if (movement) add(ours, `${line.processor_ref}\n${movement.type}`, movement.amount, line.currency);
      }
    }
    // A payout's transfer (docs/payouts.md): its entry is written before the transfer exists, so the payout names it.
    for await (const transfer of payoutTransfersBetween(ctx.db, scope, range)) add(ours, `${transfer.reference}\ntransfer`, transfer.amount, transfer.currency);
    // A refund that failed after it succeeded nets to nothing in the ledger, as at the processor.
    for (const [key, side] of ours) if (side.amount === 0) ours.delete(key);

    const credentials = await loadProcessorCredentials(ctx.db, ctx.config.secretKey, scope);
    if (!credentials) throw new Error(`The ${scope.mode} mode has no processor connection: there is nothing to reconcile with.`);
    const callCtx = processorCallContext(ctx, scope, credentials, ctx.signal);
    const theirs = new Map<string, Side>();
    for await (const record of ctx.hooks.processors[credentials.provider].listBalanceRecords(callCtx, range)) {
      add(theirs, `${record.reference}\n${record.type}`, record.amount, record.currency);
    }

    const keys = [...new Set([...ours.keys(), ...theirs.keys()])].sort();
    for (const key of keys) {
      const [reference, type] = key.split('\n') as [string, string];
      const a = ours.get(key);
      const b = theirs.get(key);
      const kind = !b ? 'missing_at_processor' : !a ? 'missing_in_ledger' : a.amount !== b.amount || a.currency !== b.currency ? 'amount_differs' : null;
      if (kind === null) continue;
      await csv.row([reference, type, kind, a?.amount ?? null, a?.currency ?? null, b?.amount ?? null, b?.currency ?? null]);
    }
  },
};
