// A worker process killed (SIGKILL) in the middle of a payout run for 500 sellers paid through
// Stripe (docs/payouts.md, "Processors"): the run's payouts and send jobs are committed, the worker
// sends them and dies with some paid, some in transit and some still pending. A new worker takes
// the dead one's jobs over once their lease ends and calls again with each payout's key, so Stripe
// answers the first transfer: every seller is paid exactly once, and no payout is left behind.
// The live mode runs on real time (no test clock): the run is started as its timer would, like
// stripe-payouts.test.ts does. PostgreSQL only: PGlite is one process's memory.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payoutRunTimer } from '../../../src/flows/pay-out.js';
import { startFakeStripe, type FakeStripe } from '../../helpers/fake-stripe.js';
import { createBuyer, createPublishedListing, createSeller } from '../../helpers/factories.js';
import { startTestApp, TEST_SECRET_KEY, usingPostgres, type TestContext } from '../../helpers/harness.js';
import { CONNECT_WEBHOOK_SECRET, stripeMode } from '../payments/stripe-helpers.js';
import { DAY_MS } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SELLERS = 500;
const SHARE = 1000; // a 1000 order, the fee taken from it: the seller's share (stripe-payouts.test.ts)

let fake: FakeStripe;
let ctx: TestContext;
const s = stripeMode(() => ctx, () => fake);

/** Runs `task` over `items`, `width` at a time. */
async function pool<T>(items: readonly T[], width: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await task(items[next++]!);
  }));
}

/** A seller onboarded at Stripe, paid daily, with one completed order's share available. */
async function scheduledSellerWithShare(buyer: { id: string }): Promise<{ id: string; account: string }> {
  const seller = await createSeller(ctx, {}, s.live());
  const link = await s.request(`/v1/sellers/${seller.id}/onboarding_links`, { return_url: 'https://shop.example/done', refresh_url: 'https://shop.example/again' });
  expect(link.status, link.text).toBe(201);
  const account = (await s.request(`/v1/sellers/${seller.id}`)).body.payouts.processor_account as string;
  await s.deliver('account.updated', { id: account, object: 'account', capabilities: { transfers: 'active' }, requirements: { disabled_reason: null } }, undefined, CONNECT_WEBHOOK_SECRET);
  const put = await ctx.request(`/v1/sellers/${seller.id}/payout_schedule`, { key: s.live(), method: 'PUT', body: { method: 'scheduled', interval: 'daily' } });
  expect(put.status, put.text).toBe(200);
  const listing = await createPublishedListing(ctx, { seller: seller.id, quantity: 5, price: { amount: 1000, currency: 'USD' } }, s.live());
  const order = await s.order({ buyer, listing });
  await s.pay(await s.payment(order.payment));
  await s.request(`/v1/orders/${order.id}/claim`, { actor: seller.id });
  await s.request(`/v1/orders/${order.id}/confirm`, { actor: buyer.id });
  return { id: seller.id, account };
}

/** A worker process on the same database, its Stripe the fake server. */
function startWorker(): { child: ChildProcess; exited: Promise<unknown>; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--role', 'worker'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'warn',
      DATABASE_URL: ctx.databaseUrl!,
      SECRET_KEY: TEST_SECRET_KEY,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'mkt-payout-crash-')),
      STRIPE_API_URL: fake.url,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return { child, exited, output: () => text };
}

async function payoutCounts(): Promise<Record<string, number>> {
  const rows = await ctx.db.query<{ status: string; n: number }>(
    "SELECT status, count(*)::int AS n FROM payouts WHERE marketplace_id = $1 AND mode = 'live' GROUP BY status",
    [ctx.marketplaceId],
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

/** The payout.send jobs not yet settled (a job's row goes once it succeeded; a failed one stays). */
async function sendJobsLeft(): Promise<number> {
  const [row] = await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM jobs WHERE kind = 'payout.send'");
  return row!.n;
}

describe.runIf(usingPostgres)('a worker killed in the middle of a payout run', () => {
  beforeAll(async () => {
    fake = await startFakeStripe();
    ctx = await startTestApp({ env: { STRIPE_API_URL: fake.url } });
    await s.connect();
  });
  afterAll(async () => {
    fake.beforeAnswer = null;
    await ctx.close();
    await fake.close();
  });

  it(`pays each of ${SELLERS} sellers exactly once`, { timeout: 600_000 }, async () => {
    const buyer = await createBuyer(ctx, {}, s.live());
    const sellers: Array<{ id: string; account: string }> = [];
    await pool(Array.from({ length: SELLERS }, (_, i) => i), 8, async () => {
      sellers.push(await scheduledSellerWithShare(buyer));
    });

    // Today's run, as its timer would start it: 500 pending payouts and their send jobs, committed.
    const now = new Date();
    const runAt = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
    const live = { marketplaceId: ctx.marketplaceId, mode: 'live' as const };
    await ctx.db.transaction((tx) => payoutRunTimer(tx, live, { id: 'tmr_crash', kind: 'payouts.run', subjectId: 'run:today', payload: {}, runAt, attempts: 0 }, now, ctx.services));
    expect(await payoutCounts()).toEqual({ pending: SELLERS });

    // Stripe answers slowly enough that the kill lands while transfers are in flight.
    fake.beforeAnswer = async (request) => {
      if (request.kind === 'transfers') await new Promise((resolve) => setTimeout(resolve, 20));
    };
    const doomed = startWorker();
    await expect
      .poll(async () => (await payoutCounts()).paid ?? 0, { timeout: 120_000, interval: 50 })
      .toBeGreaterThanOrEqual(SELLERS / 5)
      .catch((error: unknown) => {
        throw new Error(`${String(error)}\n${doomed.output()}`);
      });
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    fake.beforeAnswer = null;
    const atKill = await payoutCounts();
    expect(atKill.paid, JSON.stringify(atKill)).toBeLessThan(SELLERS);
    // Killed while sending: payouts moved in transit whose outcome the dead worker never recorded.
    expect(atKill.in_transit, JSON.stringify(atKill)).toBeGreaterThan(0);

    // The dead worker's leases end (as they would after leaseMs); a new worker takes over.
    await ctx.db.query("UPDATE jobs SET locked_until = now() - interval '1 second' WHERE kind = 'payout.send' AND status = 'running'");
    const next = startWorker();
    try {
      await expect
        .poll(async () => ({ paid: (await payoutCounts()).paid ?? 0, jobs: await sendJobsLeft() }), { timeout: 180_000, interval: 200 })
        .toEqual({ paid: SELLERS, jobs: 0 })
        .catch((error: unknown) => {
          throw new Error(`${String(error)} at kill ${JSON.stringify(atKill)}\n${next.output()}`);
        });
    } finally {
      next.child.kill('SIGKILL');
      await next.exited;
    }

    // Every seller: exactly one payout, paid, of their share, its transfer recorded.
    expect(await payoutCounts()).toEqual({ paid: SELLERS });
    const payouts = await ctx.db.query<{ id: string; seller_id: string; amount: string; idempotency_key: string; processor_reference: string | null }>(
      "SELECT id, seller_id, amount, idempotency_key, processor_reference FROM payouts WHERE marketplace_id = $1 AND mode = 'live'",
      [ctx.marketplaceId],
    );
    expect(new Set(payouts.map((p) => p.seller_id))).toEqual(new Set(sellers.map((seller) => seller.id)));
    for (const payout of payouts) {
      expect(Number(payout.amount)).toBe(SHARE);
      expect(payout.processor_reference).toMatch(/^tr_fake/);
    }
    // No send job left behind: not queued, not running, not failed (the worker stopped once it had none).
    expect(await sendJobsLeft()).toBe(0);

    // Stripe: exactly one transfer made per payout's key and per seller's account.
    expect(fake.count('transfers')).toBe(SELLERS);
    const made = fake.requestsOf('transfers').filter((r) => !r.replayed);
    expect(made).toHaveLength(SELLERS);
    expect(new Set(made.map((r) => r.idempotencyKey))).toEqual(new Set(payouts.map((p) => p.idempotency_key)));
    expect(new Set(made.map((r) => String(r.params.destination)))).toEqual(new Set(sellers.map((seller) => seller.account)));
    for (const r of made) expect(r.params.amount).toBe(String(SHARE));
    // The transfers the dead worker had made but not recorded were asked again under their key and answered from Stripe's memory.
    const replayed = fake.requestsOf('transfers').filter((r) => r.replayed);
    for (const r of replayed) expect(made.filter((m) => m.idempotencyKey === r.idempotencyKey)).toHaveLength(1);
    console.info(`payout crash: at the kill ${JSON.stringify(atKill)}, ${replayed.length} transfers asked again`);
    expect(fake.violations).toEqual([]);

    // The ledger: every entry balances, and each seller's balance is paid out whole.
    const unbalanced = await ctx.db.query(
      `SELECT entry_id FROM ledger_lines WHERE marketplace_id = $1 AND mode = 'live'
        GROUP BY entry_id HAVING sum(CASE WHEN side = 'debit' THEN amount ELSE -amount END) <> 0`,
      [ctx.marketplaceId],
    );
    expect(unbalanced).toEqual([]);
    await pool(sellers, 8, async (seller) => {
      const balance = (await s.request(`/v1/sellers/${seller.id}/balance`)).body;
      expect(balance, seller.id).toMatchObject({ available: 0, paid_out: SHARE, owed: 0 });
    });
  });
});
