// platform_fees: the fees earned (the platform_fees account's lines, refunds of fees netted) per
// UTC day and per category of the order's listing, through the orders and listings modules, one
// batch of lookups per page of lines. Memory holds one sum per day, category and currency.
import { findListingCategories } from '../../listings/index.js';
import { findOrderListings } from '../../orders/index.js';
import { dayOf, ledgerPages } from './ledger-lines.js';
import type { ReportBuilder } from './types.js';

export const platformFees: ReportBuilder = {
  header: ['day', 'category', 'fees', 'currency'],
  async build({ ctx, scope, report }, csv) {
    const sums = new Map<string, { day: string; category: string | null; currency: string; fees: number }>();
    for await (const page of ledgerPages(ctx.db, scope, { from: report.interval_start, to: report.interval_end, account: 'platform_fees' })) {
      const orderIds = [...new Set(page.flatMap((line) => (line.order_id === null ? [] : [line.order_id])))];
      const listings = await findOrderListings(ctx.db, scope, orderIds);
      const categories = await findListingCategories(ctx.db, scope, [...new Set(listings.values())]);
      for (const line of page) {
        const listing = line.order_id === null ? undefined : listings.get(line.order_id);
        const category = listing === undefined ? null : (categories.get(listing) ?? null);
        const day = dayOf(line.created_at);
        const key = `${day}\n${category ?? ''}\n${line.currency}`;
        const sum = sums.get(key) ?? { day, category, currency: line.currency, fees: 0 };
        sum.fees += line.amount;
        sums.set(key, sum);
      }
    }
    const rows = [...sums.values()].sort((a, b) => a.day.localeCompare(b.day) || (a.category ?? '').localeCompare(b.category ?? '') || a.currency.localeCompare(b.currency));
    for (const row of rows) await csv.row([row.day, row.category, row.fees, row.currency]);
  },
};
