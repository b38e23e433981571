// The checkouts module's public surface: what other modules, the flows and the composition root
// may use of it (docs/architecture.md, Import rules). Everything else in the folder is the module's own.
export { announceCheckout, openCheckout, setCheckoutPayment, withPaymentUrl } from './operations.js';
export type { NewCheckoutValues } from './operations.js';
export { CHECKOUT_MACHINE } from './status.js';
export { followOrders } from './follow-orders.js';
export { Checkout, CreateCheckoutBody } from './schemas.js';
