// Stripe Connect, on the official SDK: being written (issue 10). Until it lands a Stripe
// connection can be saved but refuses every call.
import { ProcessorDeclined, type ProcessorDriver } from './driver.js';

const unavailable = async (): Promise<never> => {
  throw new ProcessorDeclined('The Stripe processor is not available in this build.');
};

export const stripeProcessor: ProcessorDriver = {
  provider: 'stripe',
  startOnboarding: unavailable,
  startPayment: unavailable,
  cancelPayment: unavailable,
  refund: unavailable,
  transfer: unavailable,
  reverseTransfer: unavailable,
};
