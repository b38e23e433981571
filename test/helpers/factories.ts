// Small API-driven factories: each makes one object through the HTTP API, so tests build on
// exactly what a platform could do. Overrides are merged into the request body. Additive: each
// module adds its own factories here.
import { expect } from 'vitest';
import type { Category } from '../../src/modules/categories/schemas.js';
import type { Listing } from '../../src/modules/listings/schemas.js';
import type { TestContext } from './harness.js';

/** JSON read back in tests: loose on purpose, the assertions check its shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

let counter = 0;
/** A value unique within the test run (external ids, slugs). */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}`;
}

async function create<T>(ctx: TestContext, path: string, body: Record<string, unknown>, key?: string): Promise<T> {
  const res = await ctx.request<T>(path, { method: 'POST', body, key });
  expect(res.status, `POST ${path}: ${res.text}`).toBe(201);
  return res.body;
}

export interface SellerObject {
  id: string;
  [field: string]: Json;
}

export function createSeller(ctx: TestContext, overrides: Record<string, unknown> = {}, key?: string): Promise<SellerObject> {
  return create(ctx, '/v1/sellers', { external_id: unique('seller'), name: 'Ada Lovelace', email: 'ada@example.com', ...overrides }, key);
}

export function createBuyer(ctx: TestContext, overrides: Record<string, unknown> = {}, key?: string): Promise<{ id: string; [field: string]: Json }> {
  return create(ctx, '/v1/buyers', { external_id: unique('buyer'), name: 'Grace Hopper', email: 'grace@example.com', ...overrides }, key);
}

/** A seller whose verification was approved (for marketplaces with seller_verification_required). */
export async function createVerifiedSeller(ctx: TestContext, overrides: Record<string, unknown> = {}): Promise<SellerObject> {
  const seller = await createSeller(ctx, overrides);
  const verification = await create<{ id: string }>(ctx, `/v1/sellers/${seller.id}/verifications`, {});
  const approved = await ctx.request(`/v1/verifications/${verification.id}/approve`, { method: 'POST' });
  expect(approved.status, approved.text).toBe(200);
  const res = await ctx.request<SellerObject>(`/v1/sellers/${seller.id}`);
  return res.body;
}

export async function suspendSeller(ctx: TestContext, sellerId: string, reason = 'Policy violation.'): Promise<SellerObject> {
  const res = await ctx.request<SellerObject>(`/v1/sellers/${sellerId}/suspend`, { method: 'POST', body: { reason } });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** Stored events about one object, oldest first, straight from the events table. */
export async function storedEvents(ctx: TestContext, objectId: string): Promise<Array<{ id: string; type: string; data: Json }>> {
  return ctx.db.query('SELECT id, type, data FROM events WHERE object_id = $1 ORDER BY id', [objectId]);
}

// ---- catalog ----

export function createCategory(ctx: TestContext, overrides: Record<string, unknown> = {}, key?: string): Promise<Category> {
  return create(ctx, '/v1/categories', { key: unique('cat'), name: 'Running shoes', ...overrides }, key);
}

/** A draft listing; makes a new active seller unless `seller` is given. */
export async function createListing(ctx: TestContext, overrides: Record<string, unknown> = {}, key?: string): Promise<Listing> {
  const seller = overrides.seller ?? (await createSeller(ctx, {}, key)).id;
  return create(ctx, '/v1/listings', { title: 'Trail running shoes', price: { amount: 4500, currency: 'USD' }, ...overrides, seller }, key);
}

/** A listing created and published. */
export async function createPublishedListing(ctx: TestContext, overrides: Record<string, unknown> = {}, key?: string): Promise<Listing> {
  const listing = await createListing(ctx, overrides, key);
  const res = await ctx.request<Listing>(`/v1/listings/${listing.id}/publish`, { method: 'POST', ...(key === undefined ? {} : { key }) });
  expect(res.status, res.text).toBe(200);
  return res.body;
}
