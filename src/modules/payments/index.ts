// The payments module's public surface: what other modules, the flows and the composition root may
// use of it (docs/architecture.md, Import rules), and its side of the simulated processor's
// checkout page, which the root hands to the page. Everything else in the folder is the module's own.
export { recordEventReceipt, recordProcessorReport, recordRefundAfterProof } from './processor-reports.js';
export type { ReportMeaning, ReportSource } from './processor-reports.js';
export { assertCanPay, createCheckoutPayment, createOrderPayment, holdOrderRelease, releaseOrderPayment, settleEndedOrderPayment } from './order-payments.js';
export type { CheckoutForPayment, OrderForPayment } from './order-payments.js';
export { processorCallsAfterCommit } from './kick.js';
export { LEAVE_TO_WORKER } from './call-queue.js';
export type { CallKick } from './call-queue.js';
export { paymentPageUrl, paymentPageUrls } from './operations.js';
export { retryFailedReleases } from './release-retries.js';
export { checkoutPageSide } from './page-side.js';
