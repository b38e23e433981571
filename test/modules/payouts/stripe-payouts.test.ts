// Payouts through Stripe (docs/payouts.md, "Processors"): the real SDK against the fake Stripe
// server. A run makes one Transfer per seller, grouped by the payout and keyed by it, with no
// source_transaction (the platform's balance funds it); a refused transfer fails the payout and
// returns its amount to available; a run whose outcome was lost after Stripe made the transfer
// resumes with the same key and pays nobody twice.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ProcessorDriver } from '../../../src/contracts/processor.js';
import { payoutRunTimer } from '../../../src/flows/pay-out.js';
import { payoutSendJob } from '../../../src/modules/payouts/job.js';
import { runDueJobs } from '../../../src/workers/engine.js';
import { startFakeStripe, type FakeStripe } from '../../helpers/fake-stripe.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { stripeMode } from '../payments/stripe-helpers.js';
import { DAY_MS } from './helpers.js';

let fake: FakeStripe;
let ctx: TestContext;
const s = stripeMode(() => ctx, () => fake);
const live = { marketplaceId: '', mode: 'live' as const };

beforeAll(async () => {
  fake = await startFakeStripe();
  ctx = await startTestApp({ env: { STRIPE_API_URL: fake.url } });
  live.marketplaceId = ctx.marketplaceId;
  await s.connect();
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
afterEach(() => {
  expect(fake.violations).toEqual([]);
});

/** A seller paid daily at Stripe with one completed order of 1000 (fee 10 %: the share is 1000). */
async function scheduledSellerWithShare() {
  const parties = await s.parties();
  const put = await ctx.request(`/v1/sellers/${parties.seller.id}/payout_schedule`, { key: s.live(), method: 'PUT', body: { method: 'scheduled', interval: 'daily' } });
  expect(put.status, put.text).toBe(200);
  const order = await s.order(parties);
  await s.pay(await s.payment(order.payment));
  await s.request(`/v1/orders/${order.id}/claim`, { actor: parties.seller.id });
  await s.request(`/v1/orders/${order.id}/confirm`, { actor: parties.buyer.id });
  expect((await s.payment(order.payment)).release).toMatchObject({ status: 'in_balance', amount: 1000 });
  return parties;
}

/** Today's run of the live mode (its clock is real time: the run is started as its timer would). */
async function runToday() {
  const now = new Date();
  const runAt = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
  await ctx.db.transaction((tx) => payoutRunTimer(tx, live, { id: 'tmr_test', kind: 'payouts.run', subjectId: 'run:today', payload: {}, runAt, attempts: 0 }, now, ctx.services));
}

const payoutsOf = async (sellerId: string) => (await s.request(`/v1/payouts?seller=${sellerId}`)).body.data;

describe('payouts through Stripe', () => {
  it('a run makes one transfer per seller, grouped and keyed by its payout, funded from the platform balance', async () => {
    const first = await scheduledSellerWithShare();
    const second = await scheduledSellerWithShare();
    const before = fake.count('transfers');
    await runToday();
    await runDueJobs(ctx.services, payoutSendJob);
    expect(fake.count('transfers')).toBe(before + 2);
    for (const parties of [first, second]) {
      const [payout] = await payoutsOf(parties.seller.id);
      expect(payout).toMatchObject({ amount: 1000, currency: 'USD', status: 'paid', automatic: true, livemode: true });
      const transfer = fake.requestsOf('transfers').find((r) => r.idempotencyKey === `${payout.id}:transfer`)!;
      expect(transfer.params).toMatchObject({ amount: '1000', currency: 'usd', destination: parties.account, transfer_group: payout.id, metadata: { payout: payout.id } });
      expect(transfer.params.source_transaction).toBeUndefined();
      expect(payout.processor_reference).toMatch(/^tr_fake/);
      expect((await s.request(`/v1/sellers/${parties.seller.id}/balance`)).body).toMatchObject({ available: 0, paid_out: 1000 });
    }
    // A second run the same day finds nothing available: no transfer.
    await runToday();
    await runDueJobs(ctx.services, payoutSendJob);
    expect(fake.count('transfers')).toBe(before + 2);
  });

  it('a transfer Stripe refuses fails the payout: payout.failed, the amount back to available', async () => {
    const parties = await scheduledSellerWithShare();
    fake.failNext('transfers', { status: 400, code: 'balance_insufficient', message: 'You have insufficient available funds in your Stripe account.' });
    await runToday();
    await runDueJobs(ctx.services, payoutSendJob);
    const [payout] = await payoutsOf(parties.seller.id);
    expect(payout).toMatchObject({ status: 'failed', processor_reference: null });
    expect(payout.failure_message).toContain('insufficient available funds');
    expect((await s.request(`/v1/sellers/${parties.seller.id}/balance`)).body).toMatchObject({ available: 1000, paid_out: 0 });
    // Paid by the next run, a new payout with a new key.
    await runToday();
    await runDueJobs(ctx.services, payoutSendJob);
    const [latest] = await payoutsOf(parties.seller.id);
    expect(latest).toMatchObject({ status: 'paid', amount: 1000 });
    expect(latest.id).not.toBe(payout.id);
  });

  it('a run whose outcome was lost after Stripe made the transfer resumes with the same key: one transfer', async () => {
    const parties = await scheduledSellerWithShare();
    await runToday();
    const stripe = ctx.services.hooks.processors.stripe;
    // The process "dies" right after Stripe answered: the answer never reaches the database.
    const crashing: ProcessorDriver = {
      ...stripe,
      async transfer(c, input) {
        await stripe.transfer(c, input);
        throw new Error('the worker was killed after the call');
      },
    };
    const before = fake.count('transfers');
    await runDueJobs({ ...ctx.services, hooks: { ...ctx.services.hooks, processors: { ...ctx.services.hooks.processors, stripe: crashing } } }, payoutSendJob);
    const [inTransit] = await payoutsOf(parties.seller.id);
    expect(inTransit.status).toBe('in_transit');
    expect(fake.count('transfers')).toBe(before + 1);
    // Its retry is due at once for the test; the new worker calls again with the same key.
    await ctx.db.query(`UPDATE jobs SET run_at = now() - interval '1 minute' WHERE kind = 'payout.send' AND subject_id = $1`, [inTransit.id]);
    await runDueJobs(ctx.services, payoutSendJob);
    const [paid] = await payoutsOf(parties.seller.id);
    expect(paid).toMatchObject({ id: inTransit.id, status: 'paid' });
    expect(fake.count('transfers')).toBe(before + 1);
    const calls = fake.requestsOf('transfers').filter((r) => r.idempotencyKey === `${paid.id}:transfer`);
    expect(calls).toHaveLength(2);
    expect((await s.request(`/v1/sellers/${parties.seller.id}/balance`)).body).toMatchObject({ available: 0, paid_out: 1000 });
  });
});
