// No oversell across processes (PostgreSQL only): two API processes (`src/main.ts --role api`) on
// one database take 50 orders at once for the last 5 units of a listing. Exactly 5 succeed, the
// other 45 answer 409 quantity_unavailable, quantity_available is 0, and the stored events agree.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../helpers/ports.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, createPublishedListing, createSeller } from '../../helpers/factories.js';
import { startTestApp, TEST_SECRET_KEY, usingPostgres, type TestContext } from '../../helpers/harness.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));


async function startApi(databaseUrl: string): Promise<{ child: ChildProcess; base: string; output: () => string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--role', 'api'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl, SECRET_KEY: TEST_SECRET_KEY, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  const giveUpAt = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return { child, base, output: () => text };
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || Date.now() > giveUpAt) throw new Error(`API process did not start:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!usingPostgres)('two API processes, 50 orders for the last 5 units', () => {
  let ctx: TestContext;
  const apis: Array<{ child: ChildProcess; base: string }> = [];

  beforeAll(async () => {
    ctx = await startTestApp();
    apis.push(...(await Promise.all([startApi(ctx.databaseUrl!), startApi(ctx.databaseUrl!)])));
  }, 120_000);

  afterAll(async () => {
    for (const { child } of apis) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await ctx?.close();
  });

  it('exactly 5 × 201, 45 × 409 quantity_unavailable; quantity_available 0; the events agree', async () => {
    const seller = await createSeller(ctx);
    const listing = await createPublishedListing(ctx, { seller: seller.id, quantity: 10 });
    const first = await createBuyer(ctx);
    expect((await ctx.request('/v1/orders', { method: 'POST', body: { buyer: first.id, listing: listing.id, quantity: 5 } })).status).toBe(201);
    const buyers = await Promise.all(Array.from({ length: 5 }, () => createBuyer(ctx)));

    const answers = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const res = await fetch(`${apis[i % 2]!.base}/v1/orders`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ctx.keys.test.secret_key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ buyer: buyers[i % 5]!.id, listing: listing.id }),
        });
        return { status: res.status, body: (await res.json()) as { id?: string; error?: { code: string } } };
      }),
    );
    const created = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status === 409);
    expect(created).toHaveLength(5);
    expect(refused).toHaveLength(45);
    for (const answer of refused) expect(answer.body.error?.code).toBe('quantity_unavailable');

    const after = (await ctx.request(`/v1/listings/${listing.id}`)).body;
    expect(after).toMatchObject({ quantity: 10, quantity_available: 0, status: 'published' });
    const orders = (await ctx.request(`/v1/orders?listing=${listing.id}&limit=100`)).body.data as Array<{ id: string; quantity: number }>;
    expect(orders).toHaveLength(6);
    expect(orders.reduce((sum, o) => sum + o.quantity, 0)).toBe(10);
    const events = await ctx.db.query<{ object_id: string }>(
      "SELECT object_id FROM events WHERE marketplace_id = $1 AND type = 'order.created' AND data->'object'->>'listing' = $2",
      [ctx.marketplaceId, listing.id],
    );
    expect(events.map((e) => e.object_id).sort()).toEqual(orders.map((o) => o.id).sort());
    expect(new Set(created.map((a) => a.body.id))).toEqual(new Set(orders.map((o) => o.id).filter((id) => id !== orders.at(-1)!.id)));
  }, 60_000);
});
