// seller_statement: the seller account's lines of the interval, each with the running balance,
// between an opening_balance row (the balance before the interval) and a closing_balance row, one
// of each per currency (docs/ledger.md, "Reports").
import { accountBalancesAt, sellerAccount } from '../../ledger/index.js';
import { iso, ledgerPages } from './ledger-lines.js';
import type { ReportBuilder } from './types.js';

export const sellerStatement: ReportBuilder = {
  header: ['created', 'balance_transaction', 'type', 'amount', 'currency', 'source', 'order', 'running_balance'],
  async build({ ctx, scope, report, currency }, csv) {
    const account = sellerAccount(report.seller_id!);
    const from = report.interval_start;
    const to = report.interval_end;
    const running = new Map<string, number>();
    for (const row of await accountBalancesAt(ctx.db, scope, from, account)) running.set(row.currency, Number(row.balance));
    if (running.size === 0) running.set(currency, 0);
    for (const [cur, balance] of running) await csv.row([iso(from), null, 'opening_balance', null, cur, null, null, balance]);
    for await (const page of ledgerPages(ctx.db, scope, { from, to, account })) {
      for (const line of page) {
        const balance = (running.get(line.currency) ?? 0) + line.amount;
        running.set(line.currency, balance);
        await csv.row([iso(line.created_at), line.id, line.type, line.amount, line.currency, line.source_id, line.order_id, balance]);
      }
    }
    for (const [cur, balance] of running) await csv.row([iso(to), null, 'closing_balance', null, cur, null, null, balance]);
  },
};
