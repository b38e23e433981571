// The flows' parts for the composition root (src/app/modules.ts), as manifests like the modules'
// (src/contracts/wiring.ts): the routes and timers that start a flow. A module cannot name a flow
// (flows import modules), so a route or timer that runs one is declared here. Each sits in the
// root's list just before the module whose resource it makes, so the OpenAPI document lists its
// routes where they always were.
import type { ModuleManifest } from '../contracts/wiring.js';
import { addListingMediaRoute } from './routes/add-listing-media.js';
import { createCheckoutRoute } from './routes/check-out.js';
import { getAvailabilityRoute, listTimeslotsRoute, putAvailabilityRoute } from './routes/listing-availability.js';
import { listListingMediaRoute } from './routes/list-listing-media.js';
import { createOrderRoute } from './routes/place-order.js';
import { ORDER_WINDOW_TIMERS } from './order-timers.js';
import { PAYOUT_RUN_TIMER, payoutRunTimer } from './pay-out.js';
import { createPayoutRoute } from './routes/pay-out.js';
import { sellerBalanceRoute } from './routes/seller-balance.js';

/** POST /v1/orders (place-order.ts), and the order's window timers (order-timers.ts). */
export const placeOrderFlow: ModuleManifest = { name: 'flow: place an order', routes: { secret: [createOrderRoute] }, timers: ORDER_WINDOW_TIMERS };

/** POST /v1/checkouts (check-out.ts). */
export const checkOutFlow: ModuleManifest = { name: 'flow: check out', routes: { secret: [createCheckoutRoute] } };

/** POST /v1/listings/{id}/media (add-listing-media.ts) and GET /v1/listings/{id}/media (list-listing-media.ts). */
export const listingMediaFlows: ModuleManifest = { name: "flow: a listing's media", routes: { secret: [addListingMediaRoute, listListingMediaRoute] } };

/** POST /v1/payouts and the mode's daily payout run (pay-out.ts). */
export const payOutFlow: ModuleManifest = { name: 'flow: pay out', routes: { secret: [createPayoutRoute] }, timers: { [PAYOUT_RUN_TIMER]: payoutRunTimer } };

/** GET /v1/sellers/{id}/balance (seller-balance.ts): the ledger's sums and the payout schedule's next run. */
export const sellerBalanceFlow: ModuleManifest = { name: "flow: a seller's balance", routes: { secret: [sellerBalanceRoute] } };

/** PUT and GET /v1/listings/{id}/availability, GET /v1/listings/{id}/timeslots (listing-availability.ts). */
export const listingAvailabilityFlows: ModuleManifest = {
  name: "flow: a listing's availability",
  routes: { publishable: [getAvailabilityRoute, listTimeslotsRoute], secret: [putAvailabilityRoute] },
};
