// The actions the money property tests take on an order and its payment, interpreted once: the
// single-order test (test/modules/payments/payments.property.test.ts) and the checkout test
// (test/modules/payments/checkout-money.property.test.ts) generate their own steps and call these
// for the actions they share. Each action is what a party, the platform or the processor would do
// over HTTP; one the state does not allow is sent anyway and answered with its error, which is
// part of the test (the checks after each step must hold whatever the answer).
import type { Json } from './factories.js';
import type { TestResponse } from './harness.js';

/** What the actions need of the tests' helpers (test/modules/payments/helpers.ts). */
export interface MoneyActionClient {
  post(url: string, body?: unknown): Promise<TestResponse>;
  getOrder(id: string): Promise<Json>;
  payouts(sellerId: string, status: string): Promise<unknown>;
}

/** An order as the actions see it: read just before the action, with its parties and payment. */
export interface ActedOrder {
  order: Json;
  buyer: string;
  seller: string;
  payment: string;
}

export type OrderAction = 'complete' | 'cancel' | 'dispute_buyer' | 'dispute_seller' | 'retry_release';

/** `share` of what is left, at least one unit. */
export const partOf = (left: number, share: number): number => Math.max(1, Math.floor(left * share));

/** A refund through the API of `target` (a payment or an order): all that is left, or `share` of it; nothing when nothing is left. */
export async function refundSome(client: MoneyActionClient, target: { payment: string } | { order: string }, left: number, share: number, all: boolean): Promise<void> {
  if (left > 0) await client.post('/v1/refunds', all ? target : { ...target, amount: partOf(left, share) });
}

/** A refund made in the processor's dashboard of `share` of what is left; the amount asked, or null when nothing is left. */
export async function processorRefund(client: MoneyActionClient, payment: string, left: number, share: number): Promise<{ amount: number; res: TestResponse } | null> {
  if (left <= 0) return null;
  const amount = partOf(left, share);
  return { amount, res: await client.post(`/v1/test_helpers/payments/${payment}/processor_refund`, { amount }) };
}

/** One move of the order or its release, by whoever takes it. */
export async function takeOrderAction(client: MoneyActionClient, action: OrderAction, { order, buyer, seller, payment }: ActedOrder): Promise<void> {
  switch (action) {
    case 'complete':
      if (order.state === 'committed') await client.post(`/v1/orders/${order.id}/claim`, { actor: seller });
      await client.post(`/v1/orders/${order.id}/confirm`, { actor: buyer });
      return;
    case 'cancel':
      await client.post(`/v1/orders/${order.id}/cancel`, {});
      return;
    case 'dispute_buyer':
    case 'dispute_seller': {
      if (order.state !== 'disputed') await client.post(`/v1/orders/${order.id}/dispute`, { actor: buyer, reason: 'other', description: 'Property test.' });
      const current = await client.getOrder(order.id);
      if (current.dispute) await client.post(`/v1/disputes/${current.dispute}/decide`, { outcome: action === 'dispute_buyer' ? 'buyer' : 'seller' });
      return;
    }
    case 'retry_release':
      await client.post(`/v1/payments/${payment}/retry_release`);
      return;
  }
}

/** The seller's payouts enabled or restricted (a restricted seller's transfers and reversals fail). */
export async function setPayouts(client: MoneyActionClient, seller: string, status: 'enabled' | 'restricted'): Promise<void> {
  await client.payouts(seller, status);
}
