// The order table walked over HTTP, every state × operation taken by an actor, from the table
// itself: what the table allows succeeds, moves to its to-state, writes its transition and emits
// its events; anything else answers 409 invalid_state naming the state and changes nothing. The
// wrong party gets 403 actor_not_permitted, a stranger 403 actor_not_party. Timer operations are
// walked in timers.test.ts with the processor's pay, dispute decisions in
// disputes.test.ts. A new state or operation does not compile until it is walked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidState, rowOf } from '../../../src/domain/state-machine.js';
import { ORDER_MACHINE, ORDER_STATES, type OrderOperation, type OrderState } from '../../../src/modules/orders/machine.js';
import { createBuyer, storedEvents, type Json } from '../../helpers/factories.js';
import { startTestApp, type TestContext, type TestResponse } from '../../helpers/harness.js';
import { orderHelpers } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());
const h = orderHelpers(() => ctx);

interface Built {
  order: Json;
  buyer: string;
  seller: string;
}

async function committed(): Promise<Built> {
  const { order, buyer, seller } = await h.order();
  return { order, buyer: buyer.id, seller: seller.id };
}

async function then(built: Built, path: string, body: Record<string, unknown>): Promise<Built> {
  const res = await h.post(`/v1/orders/${built.order.id}/${path}`, body);
  expect(res.status, res.text).toBe(200);
  return { ...built, order: res.body };
}

const dispute = (b: Built) => ({ actor: b.buyer, reason: 'not_received', description: 'Nothing came.' });

const IN_STATE: Record<OrderState, () => Promise<Built>> = {
  awaiting_payment: async () => {
    await h.setSettings({ payments_enabled: true });
    try {
      return await committed();
    } finally {
      await h.setSettings({ payments_enabled: false });
    }
  },
  committed,
  claimed: async () => {
    const b = await committed();
    return then(b, 'claim', { actor: b.seller });
  },
  disputed: async () => {
    const b = await committed();
    return then(b, 'dispute', dispute(b));
  },
  completed: async () => {
    const b = await committed();
    await then(b, 'claim', { actor: b.seller });
    return then(b, 'confirm', { actor: b.buyer });
  },
  cancelled: async () => then(await committed(), 'cancel', {}),
  expired: async () => {
    const b = await IN_STATE.awaiting_payment();
    await h.advance(1801);
    const order = await h.getOrder(b.order.id);
    expect(order.state).toBe('expired');
    return { ...b, order };
  },
};

type Take = (b: Built) => Promise<TestResponse>;
/** How each operation is taken over HTTP, and by whom; the others are walked elsewhere. */
const TAKE: Record<OrderOperation, Take | 'timer' | 'processor' | 'dispute decision'> = {
  pay: 'processor',
  expire_unpaid: 'timer',
  expire_unclaimed: 'timer',
  cancel: (b) => h.post(`/v1/orders/${b.order.id}/cancel`, { reason: 'Platform decision.' }),
  claim: (b) => h.post(`/v1/orders/${b.order.id}/claim`, { actor: b.seller }),
  propose_cancellation: (b) => h.post(`/v1/orders/${b.order.id}/propose_cancellation`, { actor: b.buyer, reason: 'Changed my mind.' }),
  accept_cancellation: async (b) => {
    await h.post(`/v1/orders/${b.order.id}/propose_cancellation`, { actor: b.buyer });
    return h.post(`/v1/orders/${b.order.id}/accept_cancellation`, { actor: b.seller });
  },
  decline_cancellation: async (b) => {
    await h.post(`/v1/orders/${b.order.id}/propose_cancellation`, { actor: b.buyer });
    return h.post(`/v1/orders/${b.order.id}/decline_cancellation`, { actor: b.seller });
  },
  confirm: (b) => h.post(`/v1/orders/${b.order.id}/confirm`, { actor: b.buyer }),
  dispute: (b) => h.post(`/v1/orders/${b.order.id}/dispute`, dispute(b)),
  decide_for_seller: 'dispute decision',
  decide_for_buyer: 'dispute decision',
};

describe('every state × operation, as the table says', () => {
  for (const [operation, take] of Object.entries(TAKE) as Array<[OrderOperation, (typeof TAKE)[OrderOperation]]>) {
    if (typeof take !== 'function') continue;
    for (const state of ORDER_STATES) {
      const row = rowOf(ORDER_MACHINE, state, operation);
      it(`${operation} from ${state}: ${row ? `→ ${row.to}` : '409 invalid_state'}`, async () => {
        const built = await IN_STATE[state]();
        const eventsBefore = (await storedEvents(ctx, built.order.id)).length;
        const res = await take(built);
        if (!row) {
          expect(res.status, res.text).toBe(409);
          expect(res.body.error.code).toBe('invalid_state');
          expect(res.body.error.message).toContain(`is ${state}`);
          if (operation !== 'accept_cancellation' && operation !== 'decline_cancellation') {
            expect(res.body.error.message).toBe(invalidState(ORDER_MACHINE, state, operation).message);
          }
          expect((await h.getOrder(built.order.id)).state).toBe(state);
          return;
        }
        expect(res.status, res.text).toBe(200);
        expect(res.body.state).toBe(row.to);
        const log = await h.transitions(built.order.id);
        const last = log[log.length - 1];
        expect(last).toMatchObject({ from: state, to: row.to, transition: operation });
        const events = (await storedEvents(ctx, built.order.id)).slice(eventsBefore).map((e) => e.type);
        for (const type of row.emits) expect(events).toContain(type);
      });
    }
  }
});

describe('who may act', () => {
  it('a stranger is not a party: 403 actor_not_party, before the state is looked at', async () => {
    const b = await IN_STATE.completed();
    const stranger = await createBuyer(ctx);
    const res = await h.post(`/v1/orders/${b.order.id}/claim`, { actor: stranger.id });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'actor_not_party', param: 'actor' });
  });

  const WRONG: Array<[string, OrderState, (b: Built) => Record<string, unknown>, string]> = [
    ['the buyer cannot claim', 'committed', (b) => ({ actor: b.buyer }), 'claim'],
    ['the seller cannot confirm', 'claimed', (b) => ({ actor: b.seller }), 'confirm'],
    ['the seller cannot dispute', 'claimed', (b) => ({ ...dispute(b), actor: b.seller }), 'dispute'],
    ['a party cannot cancel a committed order outright', 'committed', (b) => ({ actor: b.buyer }), 'cancel'],
  ];
  for (const [title, state, body, path] of WRONG) {
    it(`${title}: 403 actor_not_permitted`, async () => {
      const b = await IN_STATE[state]();
      const res = await h.post(`/v1/orders/${b.order.id}/${path}`, body(b));
      expect(res.status, res.text).toBe(403);
      expect(res.body.error.code).toBe('actor_not_permitted');
      expect((await h.getOrder(b.order.id)).state).toBe(state);
    });
  }

  it('either party cancels an order awaiting payment; the proposer cannot accept their own proposal', async () => {
    const a = await IN_STATE.awaiting_payment();
    const res = await h.post(`/v1/orders/${a.order.id}/cancel`, { actor: a.seller, reason: 'Out of stock.' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.state).toBe('cancelled');
    expect((await h.transitions(a.order.id)).at(-1)).toMatchObject({ actor: a.seller, reason: 'Out of stock.', transition: 'cancel' });

    const b = await committed();
    await h.post(`/v1/orders/${b.order.id}/propose_cancellation`, { actor: b.seller });
    const own = await h.post(`/v1/orders/${b.order.id}/accept_cancellation`, { actor: b.seller });
    expect(own.status).toBe(403);
    expect(own.body.error.code).toBe('actor_not_permitted');
  });

  it('one proposal at a time; accept or decline without a proposal is 409', async () => {
    const b = await committed();
    const none = await h.post(`/v1/orders/${b.order.id}/decline_cancellation`, { actor: b.seller });
    expect(none.status).toBe(409);
    expect(none.body.error.code).toBe('invalid_state');
    const first = await h.post(`/v1/orders/${b.order.id}/propose_cancellation`, { actor: b.buyer, reason: 'Too slow.' });
    expect(first.body.cancellation).toMatchObject({ proposed_by: 'buyer', reason: 'Too slow.' });
    const second = await h.post(`/v1/orders/${b.order.id}/propose_cancellation`, { actor: b.seller });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('invalid_state');
    const declined = await h.post(`/v1/orders/${b.order.id}/decline_cancellation`, { actor: b.seller });
    expect(declined.body.cancellation).toBeNull();
  });
});
