// Erasure reaches the free text a party wrote on orders and disputes (issue 21, item 5), written
// as the attack it answers: a buyer (then a seller) writes their words into everything the order
// API takes text in (a party's cancel, cancellation proposals and declines, a claim's reason, the
// dispute's description, evidence), with Idempotency-Key so the answers are stored, while a
// webhook endpoint receives every event; then the party is erased. Their words must be gone from
// the dispute, the orders, GET /v1/orders/{id}/events, GET /v1/events, the webhook deliveries'
// stored bodies and the stored answers (replayed), while the other party's and the operator's
// words stay and the structure (evidence items, their authors and times) is kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISPATCHER } from '../../../src/modules/webhooks/wake.js';
import { ERASED_TEXT } from '../../../src/contracts/redaction.js';
import type { Json } from '../../helpers/factories.js';
import { startTestApp, type TestContext, type TestResponse } from '../../helpers/harness.js';
import { createEndpoint, deliverDue, startReceiver, type Receiver } from '../webhooks/helpers.js';
import { orderHelpers } from './helpers.js';

let ctx: TestContext;
let receiver: Receiver;
let endpointId: string;
beforeAll(async () => {
  ctx = await startTestApp();
  receiver = await startReceiver();
  endpointId = (await createEndpoint(ctx, { url: receiver.url('/everything'), enabled_events: ['*'] })).id;
});
afterAll(async () => {
  await ctx.services.background.loop(DISPATCHER).stop(0);
  await receiver.close();
  await ctx.close();
});
const h = orderHelpers(() => ctx);

/** Each party's words, unique to this run and this scene, so a search for them finds nothing else. */
function wordsOf(scene: string) {
  const w = (what: string) => `${scene}-${what}-${Math.random().toString(36).slice(2, 10)}`;
  return {
    buyer: { cancel: w('buyer-cancel'), proposal: w('buyer-proposal'), description: w('buyer-description'), evidence: w('buyer-evidence'), more: w('buyer-more-evidence') },
    seller: { claim: w('seller-claim'), decline: w('seller-decline'), proposal: w('seller-proposal'), evidence: w('seller-evidence') },
    operator: { note: w('operator-note') },
  };
}
type Words = ReturnType<typeof wordsOf>;

interface Stored {
  url: string;
  body: unknown;
  key: string;
}

let keys = 0;
/** A POST with an Idempotency-Key (its answer is stored); remembered so it can be replayed. */
async function post(stored: Stored[], url: string, body: unknown): Promise<Json> {
  keys += 1;
  const key = `orders-erasure-${keys}`;
  const res = await h.post(url, body, { 'idempotency-key': key });
  expect(res.status, `POST ${url}: ${res.text}`).toBeLessThan(300);
  stored.push({ url, body, key });
  return res.body;
}

/**
 * The scene: order A awaits payment and the buyer cancels it with a reason; on order B the seller
 * claims with a reason, the buyer proposes a cancellation, the seller declines it, the seller
 * proposes one (left pending), the buyer disputes with a description, both add evidence, and the
 * platform decides with a note. Every event is delivered.
 */
async function scene(words: Words) {
  const stored: Stored[] = [];
  const { seller, buyer, listing } = await h.parties();
  await h.setSettings({ payments_enabled: true });
  const a = await post(stored, '/v1/orders', { buyer: buyer.id, listing: listing.id }).finally(() => h.setSettings({ payments_enabled: false }));
  expect(a.state).toBe('awaiting_payment');
  await post(stored, `/v1/orders/${a.id}/cancel`, { actor: buyer.id, reason: words.buyer.cancel });

  const b = await post(stored, '/v1/orders', { buyer: buyer.id, listing: listing.id });
  await post(stored, `/v1/orders/${b.id}/claim`, { actor: seller.id, reason: words.seller.claim });
  await post(stored, `/v1/orders/${b.id}/propose_cancellation`, { actor: buyer.id, reason: words.buyer.proposal });
  await post(stored, `/v1/orders/${b.id}/decline_cancellation`, { actor: seller.id, reason: words.seller.decline });
  await post(stored, `/v1/orders/${b.id}/propose_cancellation`, { actor: seller.id, reason: words.seller.proposal });
  const disputed = await post(stored, `/v1/orders/${b.id}/dispute`, { actor: buyer.id, reason: 'not_as_described', description: words.buyer.description });
  const disputeId = disputed.dispute as string;
  await post(stored, `/v1/disputes/${disputeId}/evidence`, { actor: buyer.id, text: words.buyer.evidence });
  await post(stored, `/v1/disputes/${disputeId}/evidence`, { actor: seller.id, text: words.seller.evidence });
  await post(stored, `/v1/disputes/${disputeId}/evidence`, { actor: buyer.id, text: words.buyer.more });
  await post(stored, `/v1/disputes/${disputeId}/decide`, { outcome: 'seller', note: words.operator.note });
  await deliverDue(ctx);
  return { seller, buyer, orderIds: [a.id as string, b.id as string], disputeId, stored };
}

/** Every item of a list, following next_cursor. */
async function all(path: string): Promise<Json[]> {
  const items: Json[] = [];
  let after: string | null = null;
  for (;;) {
    const res: TestResponse = await ctx.request(`${path}${path.includes('?') ? '&' : '?'}limit=100${after ? `&starting_after=${after}` : ''}`);
    expect(res.status, res.text).toBe(200);
    items.push(...res.body.data);
    if (!res.body.has_more) return items;
    after = res.body.next_cursor;
  }
}

/** Everything a platform can read back about the scene, as one text per place. */
async function readBack(s: Awaited<ReturnType<typeof scene>>): Promise<Record<string, string>> {
  const places: Record<string, string> = {};
  places.dispute = (await ctx.request(`/v1/disputes/${s.disputeId}`)).text;
  for (const id of s.orderIds) {
    places[`order ${id}`] = (await ctx.request(`/v1/orders/${id}`)).text;
    places[`GET /v1/orders/${id}/events`] = JSON.stringify(await h.transitions(id));
  }
  places['GET /v1/events'] = JSON.stringify(await all('/v1/events'));
  const deliveries = await all(`/v1/webhook_deliveries?endpoint=${endpointId}`);
  places['webhook deliveries'] = JSON.stringify(deliveries);
  const bodies: string[] = [];
  for (const d of deliveries) bodies.push((await ctx.request(`/v1/webhook_deliveries/${d.id}`)).text);
  places['webhook delivery bodies'] = bodies.join('\n');
  const replays: string[] = [];
  for (const { url, body, key } of s.stored) {
    const res = await h.post(url, body, { 'idempotency-key': key });
    expect(res.headers['idempotent-replayed'], `${url}: ${res.text}`).toBe('true');
    replays.push(res.text);
  }
  places['replayed answers'] = replays.join('\n');
  return places;
}

function placesHolding(places: Record<string, string>, word: string): string[] {
  return Object.entries(places)
    .filter(([, text]) => text.includes(word))
    .map(([place]) => place);
}

/** The dispute's evidence as authors and times, to show the structure survives. */
async function evidenceShape(disputeId: string) {
  const dispute = (await ctx.request(`/v1/disputes/${disputeId}`)).body;
  return dispute.evidence.map((item: Json) => ({ actor: item.actor, created_at: item.created_at }));
}

describe('erasing a buyer', () => {
  it("removes the buyer's words from the dispute, the orders, their events, deliveries and stored answers; the seller's and the operator's stay", async () => {
    const words = wordsOf('b');
    const s = await scene(words);
    const before = await readBack(s);
    for (const word of [...Object.values(words.buyer), ...Object.values(words.seller), words.operator.note]) {
      expect(placesHolding(before, word), `${word} is planted`).not.toEqual([]);
    }
    const shape = await evidenceShape(s.disputeId);

    const erased = await ctx.request(`/v1/buyers/${s.buyer.id}`, { method: 'DELETE' });
    expect(erased.status, erased.text).toBe(200);

    const after = await readBack(s);
    for (const word of Object.values(words.buyer)) expect(placesHolding(after, word), word).toEqual([]);
    for (const word of [...Object.values(words.seller), words.operator.note]) {
      expect(placesHolding(after, word).sort(), word).toEqual(placesHolding(before, word).sort());
    }
    const rows = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM idempotency_keys WHERE response_body LIKE ANY($1::text[])`,
      [Object.values(words.buyer).map((word) => `%${word}%`)],
    );
    expect(rows[0]!.n).toBe(0);

    const dispute = (await ctx.request(`/v1/disputes/${s.disputeId}`)).body;
    expect(dispute).toMatchObject({ opened_by: s.buyer.id, reason: 'not_as_described', description: ERASED_TEXT, decision_note: words.operator.note });
    expect(dispute.evidence.map((item: Json) => item.text)).toEqual([ERASED_TEXT, words.seller.evidence, ERASED_TEXT]);
    expect(await evidenceShape(s.disputeId)).toEqual(shape);
    const [, b] = s.orderIds;
    expect((await h.getOrder(b!)).cancellation).toMatchObject({ proposed_by: 'seller', reason: words.seller.proposal });
    const log = await h.transitions(b!);
    expect(log.map((t: Json) => [t.transition, t.reason])).toEqual([
      ['create', null],
      ['claim', words.seller.claim],
      ['propose_cancellation', ERASED_TEXT],
      ['decline_cancellation', words.seller.decline],
      ['propose_cancellation', words.seller.proposal],
      ['dispute', 'not_as_described'],
      ['decide_for_seller', words.operator.note],
    ]);
    const proposed = (await all('/v1/events?type=order.cancellation_proposed')).filter((e: Json) => e.data.object.id === b).reverse();
    expect(proposed.map((e: Json) => e.data.object.cancellation)).toEqual([
      expect.objectContaining({ proposed_by: 'buyer', reason: ERASED_TEXT }),
      expect.objectContaining({ proposed_by: 'seller', reason: words.seller.proposal }),
    ]);
  });
});

describe('erasing a seller', () => {
  it("removes the seller's words the same way; the buyer's and the operator's stay", async () => {
    const words = wordsOf('s');
    const s = await scene(words);
    const before = await readBack(s);
    const shape = await evidenceShape(s.disputeId);

    const erased = await ctx.request(`/v1/sellers/${s.seller.id}`, { method: 'DELETE' });
    expect(erased.status, erased.text).toBe(200);

    const after = await readBack(s);
    for (const word of Object.values(words.seller)) expect(placesHolding(after, word), word).toEqual([]);
    for (const word of [...Object.values(words.buyer), words.operator.note]) {
      expect(placesHolding(after, word).sort(), word).toEqual(placesHolding(before, word).sort());
    }
    const dispute = (await ctx.request(`/v1/disputes/${s.disputeId}`)).body;
    expect(dispute.description).toBe(words.buyer.description);
    expect(dispute.evidence.map((item: Json) => item.text)).toEqual([words.buyer.evidence, ERASED_TEXT, words.buyer.more]);
    expect(await evidenceShape(s.disputeId)).toEqual(shape);
    const [, b] = s.orderIds;
    expect((await h.getOrder(b!)).cancellation).toMatchObject({ proposed_by: 'seller', reason: ERASED_TEXT });
    expect((await h.transitions(b!)).map((t: Json) => t.reason)).toEqual([
      null,
      ERASED_TEXT,
      words.buyer.proposal,
      ERASED_TEXT,
      ERASED_TEXT,
      'not_as_described',
      words.operator.note,
    ]);
  });

  it('a party with no words on orders is erased as before; erasing again changes nothing', async () => {
    const made = await h.order();
    expect((await ctx.request(`/v1/buyers/${made.buyer.id}`, { method: 'DELETE' })).status).toBe(200);
    const again = await ctx.request(`/v1/buyers/${made.buyer.id}`, { method: 'DELETE' });
    expect(again.status, again.text).toBe(200);
    expect(await h.getOrder(made.order.id)).toMatchObject({ buyer: made.buyer.id, cancellation: null });
  });
});

describe('erasing both parties at once', () => {
  it("the buyer and the seller of the same orders erased concurrently: both answer 200 and neither party's words remain", async () => {
    for (let round = 0; round < 3; round++) {
      const words = wordsOf(`both${round}`);
      const s = await scene(words);
      const answers = await Promise.all([
        ctx.request(`/v1/buyers/${s.buyer.id}`, { method: 'DELETE' }),
        ctx.request(`/v1/sellers/${s.seller.id}`, { method: 'DELETE' }),
      ]);
      expect(answers.map((res) => res.status)).toEqual([200, 200]);
      const after = await readBack(s);
      for (const word of [...Object.values(words.buyer), ...Object.values(words.seller)]) expect(placesHolding(after, word), word).toEqual([]);
      expect(placesHolding(after, words.operator.note)).not.toEqual([]);
    }
  });
});
