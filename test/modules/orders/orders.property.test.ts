// Random sequences of orders, transitions, timers and cancellations on a few listings (fast-check,
// over HTTP). After each step: every listing's quantity_available = quantity − reserved − sold,
// never below 0, with reserved and sold equal to what its orders hold; every order's transition
// log replays to its state, and every transition has its table row's events.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rowOf } from '../../../src/domain/state-machine.js';
import { ORDER_MACHINE, type OrderOperation, type OrderState } from '../../../src/modules/orders/machine.js';
import { createBuyer, createPublishedListing, createSeller } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { DAY, orderHelpers } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());
const h = orderHelpers(() => ctx);

type Step =
  | { kind: 'create'; listing: number; quantity: number }
  | { kind: 'act'; order: number; what: 'claim' | 'confirm' | 'cancel' | 'propose_accept' | 'propose_decline' | 'dispute' | 'decide_buyer' | 'decide_seller' }
  | { kind: 'advance'; seconds: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('create' as const), listing: fc.integer({ min: 0, max: 2 }), quantity: fc.integer({ min: 1, max: 3 }) }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('act' as const),
      order: fc.nat(20),
      what: fc.constantFrom('claim', 'confirm', 'cancel', 'propose_accept', 'propose_decline', 'dispute', 'decide_buyer', 'decide_seller' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: fc.constantFrom(3 * DAY, 7 * DAY) }) },
);

interface World {
  seller: string;
  buyer: string;
  listings: Array<{ id: string; quantity: number }>;
  orders: string[];
}

async function take(world: World, s: Step): Promise<void> {
  if (s.kind === 'advance') return h.advance(s.seconds);
  if (s.kind === 'create') {
    const listing = world.listings[s.listing]!;
    const res = await h.post('/v1/orders', { buyer: world.buyer, listing: listing.id, quantity: s.quantity });
    expect([201, 409], res.text).toContain(res.status);
    if (res.status === 201) world.orders.push(res.body.id);
    else expect(['quantity_unavailable', 'invalid_state']).toContain(res.body.error.code);
    return;
  }
  if (world.orders.length === 0) return;
  const id = world.orders[s.order % world.orders.length]!;
  const o = `/v1/orders/${id}`;
  const answers = [];
  switch (s.what) {
    case 'claim':
      answers.push(await h.post(`${o}/claim`, { actor: world.seller }));
      break;
    case 'confirm':
      answers.push(await h.post(`${o}/confirm`, { actor: world.buyer }));
      break;
    case 'cancel':
      answers.push(await h.post(`${o}/cancel`, {}));
      break;
    case 'propose_accept':
    case 'propose_decline':
      answers.push(await h.post(`${o}/propose_cancellation`, { actor: world.buyer }));
      answers.push(await h.post(`${o}/${s.what === 'propose_accept' ? 'accept' : 'decline'}_cancellation`, { actor: world.seller }));
      break;
    case 'dispute':
      answers.push(await h.post(`${o}/dispute`, { actor: world.buyer, reason: 'other', description: 'Random.' }));
      break;
    case 'decide_buyer':
    case 'decide_seller': {
      const dispute = (await h.getOrder(id)).dispute;
      if (dispute) answers.push(await h.post(`/v1/disputes/${dispute}/decide`, { outcome: s.what === 'decide_buyer' ? 'buyer' : 'seller' }));
      break;
    }
  }
  for (const res of answers) {
    expect([200, 409], res.text).toContain(res.status);
    if (res.status === 409) expect(res.body.error.code).toBe('invalid_state');
  }
}

async function checkInvariants(world: World): Promise<void> {
  for (const { id } of world.listings) {
    const [row] = await ctx.db.query<{ quantity: number; quantity_reserved: number; quantity_sold: number }>(
      'SELECT quantity, quantity_reserved, quantity_sold FROM listings WHERE id = $1',
      [id],
    );
    const held = await ctx.db.query<{ units: string; n: number }>('SELECT units, sum(quantity)::int AS n FROM orders WHERE listing_id = $1 GROUP BY units', [id]);
    const of = (units: string) => held.find((r) => r.units === units)?.n ?? 0;
    expect(row!.quantity_reserved).toBe(of('reserved'));
    expect(row!.quantity_sold).toBe(of('sold'));
    const available = row!.quantity - row!.quantity_reserved - row!.quantity_sold;
    expect(available).toBeGreaterThanOrEqual(0);
    expect((await h.getListing(id)).quantity_available).toBe(available);
  }
  for (const id of world.orders) {
    const order = await h.getOrder(id);
    const log = await h.transitions(id);
    let state: OrderState | null = null;
    let expected: string[] = [];
    for (const t of log) {
      expect(t.from).toBe(state);
      if (t.transition === 'create') {
        expected.push('order.created', ...(t.to === 'committed' ? ['order.committed'] : []));
      } else {
        const row = rowOf(ORDER_MACHINE, t.from as OrderState, t.transition as OrderOperation);
        expect(row?.to).toBe(t.to);
        expected = [...expected, ...row!.emits];
      }
      state = t.to;
    }
    expect(state).toBe(order.state);
    const events = await ctx.db.query<{ type: string }>("SELECT type FROM events WHERE object_id = $1 AND type LIKE 'order.%' ORDER BY id", [id]);
    expect(events.map((e) => e.type)).toEqual(expected);
  }
}

it('keeps units, transition logs and events consistent through random sequences', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
      const seller = await createSeller(ctx);
      const buyer = await createBuyer(ctx);
      const listings = [];
      for (const quantity of [1, 3, 6]) listings.push(await createPublishedListing(ctx, { seller: seller.id, quantity }));
      const world: World = { seller: seller.id, buyer: buyer.id, listings: listings.map((l) => ({ id: l.id, quantity: l.quantity })), orders: [] };
      for (const s of steps) {
        await take(world, s);
        await checkInvariants(world);
      }
    }),
    { numRuns: 12 },
  );
}, 300_000);
