// An API process killed (SIGKILL) between Stripe doing a call and the process recording it, for
// each call that moves money: the checkout (the charge), the transfer, the refund. Another process
// takes the call over once its lease ends and makes it again under the same idempotency key, so
// Stripe answers the first result: one charge, one transfer, one refund, recorded once.
// PostgreSQL only: PGlite is one process's memory.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../helpers/ports.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processorCallJob } from '../../../src/modules/payments/calls.js';
import { runDueJobs } from '../../../src/workers/engine.js';
import { startFakeStripe, type FakeKind, type FakeStripe } from '../../helpers/fake-stripe.js';
import { startTestApp, TEST_SECRET_KEY, usingPostgres, type TestContext } from '../../helpers/harness.js';
import { stripeMode } from './stripe-helpers.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

let fake: FakeStripe;
let ctx: TestContext;
const s = stripeMode(() => ctx, () => fake);


/** A second API process on the same database, doomed to be killed in the middle of a Stripe call. */
async function startApi(): Promise<{ child: ChildProcess; url: string; exited: Promise<unknown>; output: () => string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--role', 'api'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: ctx.databaseUrl!,
      SECRET_KEY: TEST_SECRET_KEY,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'mkt-crash-')),
      STRIPE_API_URL: fake.url,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  await expect.poll(() => fetch(`${url}/readyz`).then((res) => res.status, () => 0), { timeout: 60_000, interval: 100 }).toBe(200);
  return { child, url, exited, output: () => text };
}

/**
 * Sends a request to a fresh API process and kills it (SIGKILL) as soon as Stripe has done the
 * call of `kind`, before its answer leaves: the process never records it. Then ends the dead
 * process's lease and lets this process take the call over.
 */
async function killDuring(kind: FakeKind, path: string, body: unknown): Promise<void> {
  const api = await startApi();
  fake.beforeAnswer = async (request) => {
    if (request.kind !== kind || request.replayed) return;
    fake.beforeAnswer = null;
    api.child.kill('SIGKILL');
    await api.exited;
  };
  const answer = await fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.live()}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((res) => `answered ${res.status}`, () => 'killed');
  expect(answer, api.output()).toBe('killed');
  await api.exited;
  await ctx.db.query("UPDATE jobs SET locked_until = now() - interval '1 second' WHERE kind = $1 AND status = 'running'", [processorCallJob.name]);
  await runDueJobs(ctx.services, processorCallJob);
}

describe.runIf(usingPostgres)('an API process killed between a Stripe call and its record', () => {
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

  it('makes one charge, one transfer and one refund', { timeout: 180_000 }, async () => {
    const parties = await s.parties();
    const sessions = fake.count('checkout_sessions');
    await killDuring('checkout_sessions', '/v1/orders', { buyer: parties.buyer.id, listing: parties.listing.id });
    const [row] = await ctx.db.query<{ id: string; order_id: string }>('SELECT id, order_id FROM payments WHERE seller_id = $1', [parties.seller.id]);
    const payment = await s.payment(row!.id);
    expect(fake.count('checkout_sessions')).toBe(sessions + 1);
    expect(fake.requestsOf('checkout_sessions').filter((r) => r.idempotencyKey === `${payment.id}:start`).map((r) => r.replayed)).toEqual([false, true]);
    expect(payment.processor.checkout_session).toMatch(/^cs_test_fake/);
    expect(payment.checkout_url).not.toBeNull();

    await s.pay(payment);
    await s.request(`/v1/orders/${row!.order_id}/claim`, { actor: parties.seller.id });
    const transfers = fake.count('transfers');
    await killDuring('transfers', `/v1/orders/${row!.order_id}/confirm`, { actor: parties.buyer.id });
    expect(fake.count('transfers')).toBe(transfers + 1);
    const released = await s.payment(payment.id);
    expect(released.release).toMatchObject({ status: 'released', amount: 1000 });
    expect(fake.requestsOf('transfers').filter((r) => r.idempotencyKey === `${payment.id}:transfer:1`).map((r) => r.replayed)).toEqual([false, true]);

    const refunds = fake.count('refunds');
    const reversals = fake.count('transfer_reversals');
    await killDuring('refunds', '/v1/refunds', { payment: payment.id, amount: 1100 });
    expect(fake.count('refunds')).toBe(refunds + 1);
    expect(fake.count('transfer_reversals')).toBe(reversals + 1);
    const list = (await s.request(`/v1/refunds?payment=${payment.id}`)).body.data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ status: 'succeeded', amount: 1100, transfer_reversal: { amount: 1000 } });
    expect(await s.payment(payment.id)).toMatchObject({ amount_refunded: 1100, release: { amount_reversed: 1000 } });
    expect(fake.violations).toEqual([]);
  });
});
