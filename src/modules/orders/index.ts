// The orders module's public surface: what other modules, the flows and the composition root may
// use of it (docs/architecture.md, Import rules). Everything else in the folder is the module's own.
export { commitPaidOrder, decideDispute, moveOrder, moveOrderByTimer, requireOrder, CLAIM_WINDOW_TIMER, CONFIRM_WINDOW_TIMER, PAYMENT_WINDOW_TIMER } from './operations.js';
export type { ActorInput, OrderMove } from './operations.js';
export type { OrderOperation, OrderTimer } from './machine.js';
export { announceCreated, draftOrder, insertDraft, planOrder, setOrderPayment, unitsRefusal } from './placing.js';
export type { OrderPlan } from './placing.js';
export { checkCheckoutItems, draftCheckoutOrders, insertCheckoutOrders, setCheckoutOrderPayments, shortListingRefusal } from './checkout-orders.js';
export type { CheckedCheckoutItems, CheckoutItem, CheckoutOrdersRequest, DraftedCheckoutOrders } from './checkout-orders.js';
export { paymentView } from './creation.js';
export type { NewOrder, OrderBookingValues } from './creation.js';
export { findCheckoutOrderStates } from './operations.js';
export { CreateOrderBody, Dispute, Order, ORDER_QUANTITY_MAX, RedirectUrl } from './schemas.js';
export type { DecideDisputeBody, DisputeOrderBody } from './schemas.js';
export { serializeOrder } from './serialize.js';
export type { OrderRow } from './queries.js';
export { selectOrderListings as findOrderListings } from './queries.js';
export { scheduleBookingReminder } from './booking-reminder.js';
