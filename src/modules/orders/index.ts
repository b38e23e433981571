// The orders module's public surface: what other modules and the composition root may use of it
// (docs/architecture.md, Import rules). Everything else in the folder is the module's own.
export { commitPaidOrder, requireOrder } from './operations.js';
export { reserveCheckoutOrders, writeCheckoutOrders } from './checkout-orders.js';
export type { CheckoutItem, CheckoutOrdersRequest, ReservedCheckoutOrders } from './checkout-orders.js';
export { findCheckoutOrderStates } from './operations.js';
export type { Order } from './schemas.js';
export { ORDER_QUANTITY_MAX, RedirectUrl } from './schemas.js';
export { selectOrderListings as findOrderListings } from './queries.js';
