// The event catalog: GET /v1/event_types, the OpenAPI document's `webhooks` (and the typed union
// openapi-typescript makes of them), and the check every test app runs at close: stored events
// against their type's schema (test/helpers/event-schemas.ts). The catalog is assembled from the
// modules' declarations (src/app/wiring.ts eventCatalogOf).
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { components, webhooks } from '../../../dashboard/src/api/schema.js';
import { newId } from '../../../src/ids.js';
import { emitEvent } from '../../../src/outbox/emit.js';
import { invalidStoredEvents } from '../../helpers/event-schemas.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';

let ctx: TestContext;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let doc: any;
beforeAll(async () => {
  // One event here is made wrong on purpose: the close-time check would refuse it.
  ctx = await startTestApp({ fabricatedEvents: true });
  doc = (await ctx.request('/v1/openapi.json', { key: null })).body;
});
afterAll(() => ctx.close());

/**
 * The catalog's order, pinned: the groups by their rank (each module's declarations.ts), each
 * group's types as it writes them. A new type takes its place here too.
 */
const EVENT_TYPES = [
  'seller.created', 'seller.updated', 'seller.erased', 'seller.suspended', 'seller.unsuspended',
  'seller.verification_updated', 'seller.payouts_updated', 'buyer.created', 'buyer.updated',
  'buyer.erased', 'category.created', 'category.updated', 'listing.created', 'listing.updated',
  'listing.published', 'listing.unpublished', 'listing.sold', 'listing.expired', 'listing.removed',
  'media.ready', 'media.deleted', 'order.created', 'order.committed', 'order.claimed',
  'order.cancellation_proposed', 'order.cancellation_declined', 'order.cancelled', 'order.expired',
  'order.completed', 'order.disputed', 'order.booking_starting', 'checkout.created', 'checkout.completed',
  'checkout.expired', 'checkout.cancelled', 'payment.created', 'payment.succeeded',
  'payment.failed', 'payment.canceled', 'payment.refunded', 'payment.released',
  'payment.release_failed', 'refund.created', 'refund.updated', 'payout.created', 'payout.paid',
  'payout.failed', 'payout.canceled', 'verification.created', 'verification.updated', 'review.created', 'review.visible', 'review.removed',
  'reputation_event.created', 'reputation_event.voided', 'dispute.created',
  'dispute.evidence_added', 'dispute.updated', 'dispute.decision_overdue', 'dispute.decided',
  'card_dispute.created', 'card_dispute.updated', 'flag.created', 'flag.resolved',
  'moderation_action.created', 'report.succeeded', 'report.failed',
] as const;

/** Every $ref of a JSON value. */
function refsOf(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(refsOf);
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => (key === '$ref' && typeof value === 'string' ? [value] : refsOf(value)));
}

const component = (ref: string) => doc.components.schemas[ref.replace('#/components/schemas/', '')];

describe('GET /v1/event_types', () => {
  it('lists every event type, in one page of 100, each with a description and the self-contained JSON Schema of data.object', async () => {
    const res = await ctx.request('/v1/event_types?limit=100');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(res.body.data.map((t: { type: string }) => t.type)).toEqual([...EVENT_TYPES]);
    for (const entry of res.body.data) {
      expect(entry.object).toBe('event_type');
      expect(entry.description.length, entry.type).toBeGreaterThan(10);
      expect(entry.schema.type, entry.type).toBe('object');
      expect(entry.schema.required, entry.type).toContain('id');
      const kind = entry.type.slice(0, entry.type.lastIndexOf('.'));
      expect(entry.schema.properties.object, entry.type).toMatchObject({ const: kind });
      const text = JSON.stringify(entry.schema);
      expect(text, entry.type).not.toContain('"$id"');
      expect(text, entry.type).not.toContain('"$ref"');
    }
  });

  it('retrieves one type as listed', async () => {
    const list = await ctx.request('/v1/event_types?limit=100');
    const res = await ctx.request('/v1/event_types/order.created');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(list.body.data.find((t: { type: string }) => t.type === 'order.created'));
    expect(res.body.schema.properties.buyer).toEqual({ type: 'string' });
    // A nested object of the catalog's schema is there in full (a Listing's media).
    const listing = await ctx.request('/v1/event_types/listing.created');
    expect(listing.body.schema.properties.media.items.properties.content_type).toBeDefined();
  });

  it('answers 404 resource_missing naming the type for a type the service does not emit', async () => {
    const res = await ctx.request('/v1/event_types/order.bogus');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'resource_missing', param: 'type' });
    expect(res.body.error.message).toContain('order.bogus');
  });

  it('pages like every list: 20 by default, limit and starting_after (a type)', async () => {
    const first = await ctx.request('/v1/event_types');
    expect(first.body).toMatchObject({ has_more: true, next_cursor: EVENT_TYPES[19] });
    expect(first.body.data).toHaveLength(20);
    const next = await ctx.request(`/v1/event_types?limit=10&starting_after=${EVENT_TYPES[19]}`);
    expect(next.body.data.map((t: { type: string }) => t.type)).toEqual(EVENT_TYPES.slice(20, 30));
  });

  it('needs a secret key, like the events', async () => {
    for (const url of ['/v1/event_types', '/v1/event_types/order.created']) {
      const res = await ctx.request(url, { key: ctx.keys.test.publishable_key });
      expect(res.status, url).toBe(403);
      expect(res.body.error.code).toBe('secret_key_required');
    }
  });
});

describe('the OpenAPI document', () => {
  it('has one webhook per event type: a POST whose body is the envelope with that type and the object of its routes', () => {
    expect(Object.keys(doc.webhooks)).toEqual([...EVENT_TYPES]);
    for (const type of EVENT_TYPES) {
      const post = doc.webhooks[type].post;
      expect(post.tags).toEqual(['Webhooks']);
      expect(post.responses['2XX']).toBeDefined();
      const envelope = component(post.requestBody.content['application/json'].schema.$ref);
      expect(envelope.properties.type, type).toEqual({ const: type, type: 'string' });
      expect(envelope.required).toEqual(['id', 'object', 'type', 'api_version', 'created', 'livemode', 'data']);
      expect(envelope.properties.data.properties.object.$ref, type).toMatch(/^#\/components\/schemas\/[A-Za-z]+$/);
    }
    // The object is the component the routes answer with: GET /v1/orders/{id} and order.created's data.object agree.
    expect(component(doc.components.schemas.OrderCreatedEvent.properties.data.properties.object.$ref).required).toEqual(
      doc.paths['/v1/orders/{id}'].get.responses['200'].content['application/json'].schema.required,
    );
  });

  it('documents data.previous_attributes on the types that carry it, as a partial of the object', () => {
    const data = (name: string) => doc.components.schemas[name].properties.data;
    expect(data('ListingUpdatedEvent').properties.previous_attributes.properties.title).toBeDefined();
    expect(data('ListingUpdatedEvent').properties.previous_attributes.required).toBeUndefined();
    expect(data('ListingPublishedEvent').properties.previous_attributes).toBeUndefined();
  });

  it('offers WebhookEvent: the union of every envelope, discriminated by type', () => {
    const union = doc.components.schemas.WebhookEvent;
    expect(union.oneOf).toHaveLength(EVENT_TYPES.length);
    expect(union.discriminator.propertyName).toBe('type');
    expect(union.discriminator.mapping['order.created']).toBe('#/components/schemas/OrderCreatedEvent');
  });

  it('resolves every $ref it holds', () => {
    for (const ref of refsOf(doc)) {
      const [, section, name] = /^#\/components\/([^/]+)\/(.+)$/.exec(ref) ?? [];
      expect(doc.components[section!]?.[name!], ref).toBeDefined();
    }
  });

  it('gives openapi-typescript a union a client narrows by type (checked by tsc)', () => {
    type Event = components['schemas']['WebhookEvent'];
    const buyerOf = (event: Event) => (event.type === 'order.created' ? event.data.object.buyer : null);
    expectTypeOf(buyerOf).returns.toEqualTypeOf<string | null>();
    type Posted = NonNullable<webhooks['refund.updated']['post']['requestBody']>['content']['application/json'];
    expectTypeOf<Posted['data']['previous_attributes']>().toEqualTypeOf<Partial<components['schemas']['Refund']> | undefined>();
  });
});

describe('the check of stored events', () => {
  it('passes the events the service emits, and names the type, the event and the errors of one that does not match', async () => {
    const seller = await ctx.request('/v1/sellers', { body: { name: 'Oak & Co', email: 'oak@example.com' } });
    expect(seller.status).toBe(201);
    expect(await invalidStoredEvents(ctx.db)).toEqual([]);

    const scope = { marketplaceId: ctx.marketplaceId, mode: 'test' as const };
    const wrong = { ...seller.body, id: newId('seller'), name: 42, colour: 'red' };
    const event = await ctx.db.transaction((tx) => emitEvent(tx, scope, new Date(), 'seller.created', wrong));
    const problems = await invalidStoredEvents(ctx.db);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`seller.created ${event.id}:`);
    expect(problems[0]).toContain('/data/object/name must be string');
    expect(problems[0]).toContain('must NOT have additional properties {"additionalProperty":"colour"}');
  });
});
