// The payments module's side of the simulated processor's checkout page
// (src/adapters/processors/simulated/checkout-page.ts): the payment found by its id alone (the
// page has no API key), checked with the page's token check, what it pays for, and the Pay and
// Decline buttons, reported as the processor would report them and settled by the flow the root
// hands it (src/flows/settle-processor-report.ts).
import { modeNow, type Scope } from '../../scope.js';
import type { ServiceContext } from '../../contracts/context.js';
import type { ProcessorReport, SettleReport } from '../../contracts/processor.js';
import type { CheckoutPage, CheckoutPageSide, PageItem, PageTokenCheck } from '../../contracts/simulated-pages.js';
import { findListingTitles } from '../listings/index.js';
import { findOrderListings } from '../orders/index.js';
import { findSellerNames } from '../sellers/index.js';
import { kickFor } from './kick.js';
import * as queries from './queries.js';
import type { LineItem } from './queries.js';
import { lockOrderThenPayment } from './processor-reports.js';
import { serializePayment } from './serialize.js';
import { SIMULATED_DECLINE_MESSAGE, succeeded } from './simulated-payments.js';

/**
 * The payment behind a page, when the page's token is the one its checkout URL carries (the URL
 * the processor handed out and the payment keeps); else null, and the page answers 404.
 */
async function checkoutScope(ctx: ServiceContext, id: string, check: PageTokenCheck): Promise<Scope | null> {
  const found = await queries.selectSimulatedCheckout(ctx.db, id);
  if (!found || !check(found.checkout_url)) return null;
  return { marketplaceId: found.marketplace_id, mode: found.mode };
}

/** A checkout's line items, or the order's one listing, with titles and seller names (two statements). */
async function pageItems(ctx: ServiceContext, scope: Scope, row: queries.PaymentRow): Promise<PageItem[]> {
  const lines: LineItem[] = row.line_items ?? (row.order_id === null ? [] : [{ order: row.order_id, listing: (await findOrderListings(ctx.db, scope, [row.order_id])).get(row.order_id) ?? null, amount: row.amount }]);
  const titles = await findListingTitles(ctx.db, scope, lines.flatMap((line) => (line.listing === null ? [] : [line.listing])));
  const names = await findSellerNames(ctx.db, scope, [...new Set([...titles.values()].map((t) => t.sellerId))]);
  return lines.map((line) => {
    const listing = line.listing === null ? undefined : titles.get(line.listing);
    return { order: line.order, listing: line.listing, title: listing?.title ?? null, seller: listing ? (names.get(listing.sellerId) ?? null) : null, amount: line.amount };
  });
}

async function view(ctx: ServiceContext, id: string, check: PageTokenCheck): Promise<CheckoutPage> {
  const scope = await checkoutScope(ctx, id, check);
  const row = scope ? await queries.selectPayment(ctx.db, scope, id) : null;
  if (!scope || !row) return { kind: 'missing' };
  return row.status === 'awaiting_payment' && row.method === 'checkout_session'
    ? { kind: 'open', payment: serializePayment(row), items: await pageItems(ctx, scope, row) }
    : { kind: 'closed', payment: serializePayment(row) };
}

/** The Pay or Decline button; then back to the success or cancel URL, or a closing page. */
async function submit(settle: SettleReport, ctx: ServiceContext, id: string, check: PageTokenCheck, pay: boolean): Promise<CheckoutPage> {
  const scope = await checkoutScope(ctx, id, check);
  if (!scope) return { kind: 'missing' };
  const row = await ctx.db.transaction(async (tx) => {
    const payment = await lockOrderThenPayment(tx, scope, id);
    if (!payment || payment.status !== 'awaiting_payment') return payment;
    const now = await modeNow(tx, ctx.clock, scope);
    const one: ProcessorReport = pay ? succeeded(payment) : { type: 'payment_failed', paymentId: id, paymentIntent: null, checkoutSession: null, message: SIMULATED_DECLINE_MESSAGE };
    await settle(tx, scope, one, now, kickFor(ctx));
    return queries.lockPayment(tx, scope, id);
  });
  if (!row) return { kind: 'missing' };
  const url = pay ? row.success_url : row.cancel_url;
  return url !== null && (!pay || row.status === 'succeeded') ? { kind: 'redirect', url } : { kind: 'closed', payment: serializePayment(row) };
}

/** The page's side, its reports settled by `settle` (the root passes the flow). */
export function checkoutPageSide(settle: SettleReport): CheckoutPageSide {
  return { view, submit: (ctx, id, check, pay) => submit(settle, ctx, id, check, pay) };
}
