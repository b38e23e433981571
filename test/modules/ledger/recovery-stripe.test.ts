// Recovery through Stripe (docs/ledger.md, "What sellers owe"): the real SDK against the fake Stripe
// server. A reversal Stripe refuses leaves the seller owing it; the seller's next release keeps it
// and transfers only the rest (one Transfer for the remainder, with the charge as source_transaction).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '../../helpers/fake-stripe.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { stripeMode } from '../payments/stripe-helpers.js';

let fake: FakeStripe;
let ctx: TestContext;
const s = stripeMode(() => ctx, () => fake);

beforeAll(async () => {
  fake = await startFakeStripe();
  ctx = await startTestApp({ env: { STRIPE_API_URL: fake.url } });
  await s.connect();
  await ctx.db.query('UPDATE marketplace_modes SET settings = settings || $2::jsonb WHERE marketplace_id = $1 AND mode = $3', [ctx.marketplaceId, JSON.stringify({ seller_debt_write_off_days: null }), 'live']);
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
afterEach(() => {
  expect(fake.violations).toEqual([]);
});

async function completed(parties: Awaited<ReturnType<typeof s.parties>>) {
  const order = await s.order(parties);
  const { pi, charge } = await s.pay(await s.payment(order.payment));
  await s.request(`/v1/orders/${order.id}/claim`, { actor: parties.seller.id });
  await s.request(`/v1/orders/${order.id}/confirm`, { actor: parties.buyer.id });
  return { order, pi, charge };
}

describe('Stripe: a release reduced by what the seller owes', () => {
  it('transfers only the remainder after a refused reversal', async () => {
    const parties = await s.parties();
    const first = await completed(parties);
    expect(fake.requestsOf('transfers').at(-1)!.params).toMatchObject({ amount: '1000' });

    fake.failNext('transfer_reversals', { status: 400, code: 'balance_insufficient', message: 'Insufficient funds in the destination account.' });
    const refund = await s.request('/v1/refunds', { payment: first.order.payment, amount: 550 });
    expect(refund.status, refund.text).toBe(201);
    expect((await s.request(`/v1/refunds/${refund.body.id}`)).body).toMatchObject({ status: 'succeeded', transfer_reversal: { amount: 500, status: 'failed' } });
    expect((await s.request(`/v1/sellers/${parties.seller.id}/balance`)).body).toMatchObject({ currency: 'USD', pending: 0, transferred: 1000, owed: 500, net: 500 });

    const transfers = fake.count('transfers');
    const second = await completed(parties);
    expect(fake.count('transfers')).toBe(transfers + 1);
    expect(fake.requestsOf('transfers').at(-1)).toMatchObject({
      idempotencyKey: `${second.order.payment}:transfer:1`,
      params: { amount: '500', currency: 'usd', destination: parties.account, source_transaction: second.charge, transfer_group: second.order.id },
    });
    const released = await s.payment(second.order.payment);
    expect(released.release).toMatchObject({ status: 'released', amount: 1000, recovered: 500 });
    expect(released.processor.transfer).toMatch(/^tr_fake/);
    expect((await s.request(`/v1/sellers/${parties.seller.id}/balance`)).body).toMatchObject({ pending: 0, transferred: 1500, reversed: 0, owed: 0, net: 1500 });
    const recovery = (await s.request(`/v1/balance_transactions?seller=${parties.seller.id}&type=recovery`)).body.data;
    expect(recovery.map((line: { account: string; amount: number }) => [line.account.startsWith('seller:') ? 'seller' : line.account, line.amount]).sort()).toEqual([['seller', -500], ['seller_receivables', -500]]);
  });

  it('a share the debt takes whole makes no Transfer call', async () => {
    const parties = await s.parties();
    const first = await completed(parties);
    await s.deliver('refund.created', { id: 're_dashboard_recovery', object: 'refund', amount: 1100, payment_intent: first.pi, charge: first.charge, status: 'succeeded', metadata: {} });
    expect((await s.request(`/v1/sellers/${parties.seller.id}/balance`)).body).toMatchObject({ owed: 1000 });
    const transfers = fake.count('transfers');
    const second = await completed(parties);
    expect(fake.count('transfers')).toBe(transfers);
    const released = await s.payment(second.order.payment);
    expect(released.release).toMatchObject({ status: 'released', amount: 1000, recovered: 1000 });
    expect(released.processor.transfer).toBeNull();
    expect((await s.request(`/v1/sellers/${parties.seller.id}/balance`)).body).toMatchObject({ pending: 0, transferred: 1000, owed: 0, net: 1000 });
  });
});
