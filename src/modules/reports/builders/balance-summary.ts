// balance_summary: every account with a balance before the interval or a line in it: the opening
// balance, the movements in (lines that grew the balance) and out (lines that shrank it, as a
// positive sum), and the closing balance. Memory holds one row per account and currency.
import { accountBalancesAt } from '../../ledger/index.js';
import { ledgerPages } from './ledger-lines.js';
import type { ReportBuilder } from './types.js';

interface Summary {
  account: string;
  currency: string;
  opening: number;
  in: number;
  out: number;
}

export const balanceSummary: ReportBuilder = {
  header: ['account', 'currency', 'opening_balance', 'movements_in', 'movements_out', 'closing_balance'],
  async build({ ctx, scope, report }, csv) {
    const rows = new Map<string, Summary>();
    const summary = (account: string, currency: string) => {
      const key = `${account}\n${currency}`;
      let row = rows.get(key);
      if (!row) rows.set(key, (row = { account, currency, opening: 0, in: 0, out: 0 }));
      return row;
    };
    for (const row of await accountBalancesAt(ctx.db, scope, report.interval_start)) summary(row.account, row.currency).opening = Number(row.balance);
    for await (const page of ledgerPages(ctx.db, scope, { from: report.interval_start, to: report.interval_end })) {
      for (const line of page) {
        const row = summary(line.account, line.currency);
        if (line.amount > 0) row.in += line.amount;
        else row.out -= line.amount;
      }
    }
    const sorted = [...rows.values()].sort((a, b) => a.account.localeCompare(b.account) || a.currency.localeCompare(b.currency));
    for (const row of sorted) await csv.row([row.account, row.currency, row.opening, row.in, row.out, row.opening + row.in - row.out]);
  },
};
