// Erasure reaches everything (src/contracts/erasure.ts): after DELETE of a seller and of a buyer,
// none of their personal data is left in ANY table of the database. The walk reads the table and
// column list from the database itself (information_schema), so a table added later is walked too.
//
// Two guards make a new table fail here until someone has thought about erasure for it:
// - every table must be listed in TABLES below, either as one the steps put the parties' data in
//   (and erasure must clear) or as one that holds none of it, with why;
// - the data walk searches every text, json and jsonb column of every table for the values.
// A module that comes to keep personal data adds a step to SELLER_STEPS or BUYER_STEPS that puts
// the party's values into its table (an order's review text, a webhook delivery body…).
// Webhook delivery bodies are reached by subscribeToEverything() once the service has endpoints,
// the text of reviews, and the reasons, dispute description and evidence the parties wrote on
// orders, by trade() once it has orders and reviews.
//
// ALLOWED is the one, short list of places where an erased value may remain, each with why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublishedListing, createListing, type Json } from '../helpers/factories.js';
import { startTestApp, type TestContext } from '../helpers/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

/** What each table holds of a seller's or buyer's personal data. */
const TABLES: Record<string, 'party data' | { none: string }> = {
  sellers: 'party data',
  buyers: 'party data',
  storefronts: 'party data',
  verifications: 'party data',
  onboarding_links: 'party data',
  flags: 'party data',
  events: 'party data',
  idempotency_keys: 'party data',
  moderation_actions: 'party data',
  reviews: 'party data',
  webhook_deliveries: { none: "a delivery keeps no body: it refers to its event, whose erasure every later attempt sends" },
  orders: 'party data',
  order_transitions: 'party data',
  checkouts: { none: "amounts, states and order ids by buyer id; the platform's metadata and redirect URLs, which erasure leaves on an order too" },
  reputation_events: { none: 'ratings by id; reputation stays (contract 5)' },
  disputes: 'party data',
  media: { none: 'listing images by content type and size' },
  payments: { none: 'amounts, states and processor ids by order; money records stay with the order (contract 5)' },
  refunds: { none: 'amounts, states and processor ids by payment' },
  card_disputes: { none: "the processor's chargeback records: amounts, reasons and states by payment" },
  seller_payout_schedules: { none: "a seller's payout schedule by seller id: method, interval, anchors, delay, minimum" },
  payouts: { none: 'payouts by seller id: amounts, states, periods and processor references; money records stay (docs/payouts.md)' },
  payout_lines: { none: 'the ledger line ids a payout pays, with their types and amounts' },
  ledger_lines: { none: 'the ledger: ids, accounts and amounts of money movements (docs/ledger.md, Erasure)' },
  ledger_invariant_state: { none: "the ledger invariants job's checkpoint: a line id per mode" },
  ledger_invariant_violations: { none: 'invariant violations: the check, the id of the wrong entry, payment or dispute, and what was off' },
  reports: { none: 'reports asked for: type, interval, the seller id of a statement, status; their CSV files hold ids and amounts only (docs/ledger.md, Reports)' },
  simulated_processor_records: { none: "the simulated processor's own books: its references, types and amounts, for reconciliation" },
  processor_event_receipts: { none: 'processor event ids already handled' },
  webhook_endpoints: { none: "the platform's own receivers" },
  listing_availability: { none: "a listing's time zone, hours and closures; an exception's reason is a note on the listing, like its text" },
  booked_seats: { none: 'seat indexes and times held, by listing and order id' },
  listings: { none: "the seller's listings are taken down (removed_reason seller_erased); their text is the offer, not the person" },
  categories: { none: 'platform catalog' },
  timers: { none: 'kind, subject id and time' },
  jobs: { none: 'background work by id: email sends, file deletions, processor calls (ids, amounts, the order id as a receipt line)' },
  emails: { none: 'workspace members only' },
  workspaces: { none: 'the platform operator' },
  users: { none: 'the platform operator' },
  workspace_members: { none: 'the platform operator' },
  management_tokens: { none: 'the platform operator' },
  invitations: { none: 'the platform operator' },
  dashboard_sessions: { none: 'the platform operator: dashboard sign-ins of workspace members' },
  password_resets: { none: 'the platform operator: password reset links of workspace members' },
  email_verifications: { none: 'the platform operator: address verification links of workspace members' },
  login_failures: { none: 'the platform operator' },
  login_attempts: { none: 'the platform operator' },
  marketplaces: { none: 'the platform operator' },
  marketplace_modes: { none: 'settings' },
  api_keys: { none: 'credentials of the platform' },
  processor_connections: { none: 'credentials of the platform' },
  schema_migrations: { none: 'migration versions' },
};

/**
 * Where an erased value may remain. The moderation log is the platform's audit record of what it
 * did and why: its reason outlives erasure (docs/trust-and-safety.md), in the row, in its
 * moderation_action.created event (which that event's webhook deliveries send: they keep no copy). Nothing else.
 */
const ALLOWED: Array<{ table: string; column: string; where: string; why: string }> = [
  { table: 'moderation_actions', column: 'reason', where: 'TRUE', why: 'the audit log keeps its reasons' },
  { table: 'events', column: 'data', where: "type = 'moderation_action.created'", why: "the audit log's events keep their reasons" },
];

const T = 'zq7';
const seller = {
  external_id: `${T}-seller-ext`,
  name: `Sellername ${T}s`,
  email: `seller.${T}s@example.com`,
  renamed: `Renamed ${T}s`,
  metadata: `phone ${T}s-meta`,
  storefront: { name: `Shop ${T}s`, slug: `${T}s-shop`, description: `About ${T}s shop`, metadata: `owner ${T}s-storefront-meta` },
  verificationNotes: `Passport ${T}s-notes`,
  rejection: `Passport ${T}s-expired`,
  returnUrl: `https://platform.example/done?who=${T}s-return`,
  flagDescription: `Reported by ${T}s-flag`,
  suspension: `Suspended: ${T}s-moderation-reason`,
  reviewText: `Review by ${T}s-review`,
  claimReason: `Claimed by ${T}s-claim`,
  declineReason: `Declined by ${T}s-decline`,
  proposalReason: `Proposed by ${T}s-proposal`,
  evidence: `Evidence by ${T}s-evidence`,
};
const buyer = {
  external_id: `${T}-buyer-ext`,
  name: `Buyername ${T}b`,
  email: `buyer.${T}b@example.com`,
  renamed: `Renamed ${T}b`,
  metadata: `address ${T}b-meta`,
  flagDescription: `Reported by ${T}b-flag`,
  reviewText: `Review by ${T}b-review`,
  proposalReason: `Proposed by ${T}b-proposal`,
  disputeDescription: `Disputed by ${T}b-description`,
  evidence: `Evidence by ${T}b-evidence`,
};

/** Every value that must be gone after both erasures. */
const ERASED_VALUES = [
  seller.external_id,
  seller.name,
  seller.email,
  seller.renamed,
  seller.metadata,
  ...Object.values(seller.storefront),
  seller.verificationNotes,
  seller.rejection,
  seller.returnUrl,
  seller.flagDescription,
  seller.suspension,
  buyer.external_id,
  buyer.name,
  buyer.email,
  buyer.renamed,
  buyer.metadata,
  buyer.flagDescription,
];

let keyCounter = 0;
/** A POST with an Idempotency-Key, so its answer is stored (and must be redacted too). */
async function post(path: string, body: unknown): Promise<Json> {
  keyCounter += 1;
  const res = await ctx.request(path, { body, headers: { 'idempotency-key': `erasure-walk-${keyCounter}` } });
  expect(res.status, `POST ${path}: ${res.text}`).toBeLessThan(300);
  return res.body;
}

async function patch(path: string, body: unknown): Promise<void> {
  const res = await ctx.request(path, { method: 'PATCH', body });
  expect(res.status, res.text).toBe(200);
}

interface Parties {
  sellerId: string;
  buyerId: string;
  /** Somebody else's listing, that the parties flag. */
  otherListingId: string;
}

/** What a seller does that leaves its data in the service. */
const SELLER_STEPS: Array<(p: Parties) => Promise<void>> = [
  async ({ sellerId }) => patch(`/v1/sellers/${sellerId}`, { name: seller.renamed, metadata: { phone: seller.metadata } }),
  async ({ sellerId }) => {
    const { name, slug, description, metadata } = seller.storefront;
    const res = await ctx.request(`/v1/sellers/${sellerId}/storefront`, { method: 'PUT', body: { name, slug, description, metadata: { owner: metadata } } });
    expect(res.status, res.text).toBe(200);
  },
  async ({ sellerId }) => {
    const verification = await post(`/v1/sellers/${sellerId}/verifications`, { notes: seller.verificationNotes, metadata: { doc: seller.verificationNotes } });
    await post(`/v1/verifications/${verification.id}/reject`, { reason: seller.rejection });
  },
  async ({ sellerId }) => {
    await post(`/v1/sellers/${sellerId}/onboarding_links`, { return_url: seller.returnUrl, refresh_url: 'https://platform.example/retry' });
  },
  async ({ sellerId }) => {
    await createPublishedListing(ctx, { seller: sellerId });
    await createListing(ctx, { seller: sellerId });
  },
  async ({ sellerId, otherListingId }) => {
    const flag = await post('/v1/flags', { target_type: 'listing', target: otherListingId, reporter: sellerId, reason: 'fraud', description: seller.flagDescription });
    await post(`/v1/flags/${flag.id}/resolve`, { action: 'dismiss' });
  },
];

/** What a buyer does that leaves its data in the service. */
const BUYER_STEPS: Array<(p: Parties) => Promise<void>> = [
  async ({ buyerId }) => patch(`/v1/buyers/${buyerId}`, { name: buyer.renamed, metadata: { address: buyer.metadata } }),
  async ({ buyerId, otherListingId }) => {
    await post('/v1/flags', { target_type: 'listing', target: otherListingId, reporter: buyerId, reason: 'spam', description: buyer.flagDescription });
  },
  async ({ buyerId, sellerId }) => {
    await post('/v1/flags', { target_type: 'seller', target: sellerId, reporter: buyerId, reason: 'other', description: buyer.flagDescription });
  },
];

/**
 * Once the service has webhook endpoints: one subscribed to every event before the parties act,
 * so their events' delivery bodies exist and are walked too.
 */
async function subscribeToEverything(): Promise<void> {
  if (!ctx.app.hasRoute({ method: 'POST', url: '/v1/webhook_endpoints' })) return;
  const res = await ctx.request('/v1/webhook_endpoints', { body: { url: 'https://127.0.0.1:9/erasure-walk', enabled_events: ['*'] } });
  expect(res.status, res.text).toBe(201);
}

/**
 * Once the service has orders and reviews: the buyer orders from the seller, the order completes,
 * and each reviews the other, so the text of the reviews they wrote is planted too. A second order
 * carries every free text a party writes on orders and disputes: the reasons of a claim, a
 * cancellation proposal from each (the seller's left pending on the order) and a decline, the
 * dispute's description and evidence from both. Answers the values it planted.
 */
async function trade({ sellerId, buyerId }: Parties): Promise<string[]> {
  if (!ctx.app.hasRoute({ method: 'POST', url: '/v1/orders/:id/reviews' })) return [];
  const listing = await createPublishedListing(ctx, { seller: sellerId, quantity: 2 });
  const order = await post('/v1/orders', { buyer: buyerId, listing: listing.id });
  await post(`/v1/orders/${order.id}/claim`, { actor: sellerId });
  await post(`/v1/orders/${order.id}/confirm`, { actor: buyerId });
  await post(`/v1/orders/${order.id}/reviews`, { actor: buyerId, rating: 5, body: buyer.reviewText });
  await post(`/v1/orders/${order.id}/reviews`, { actor: sellerId, rating: 4, body: seller.reviewText });

  const second = await post('/v1/orders', { buyer: buyerId, listing: listing.id });
  await post(`/v1/orders/${second.id}/claim`, { actor: sellerId, reason: seller.claimReason });
  await post(`/v1/orders/${second.id}/propose_cancellation`, { actor: buyerId, reason: buyer.proposalReason });
  await post(`/v1/orders/${second.id}/decline_cancellation`, { actor: sellerId, reason: seller.declineReason });
  await post(`/v1/orders/${second.id}/propose_cancellation`, { actor: sellerId, reason: seller.proposalReason });
  const disputed = await post(`/v1/orders/${second.id}/dispute`, { actor: buyerId, reason: 'other', description: buyer.disputeDescription });
  await post(`/v1/disputes/${disputed.dispute}/evidence`, { actor: buyerId, text: buyer.evidence });
  await post(`/v1/disputes/${disputed.dispute}/evidence`, { actor: sellerId, text: seller.evidence });
  return [
    buyer.reviewText,
    seller.reviewText,
    seller.claimReason,
    buyer.proposalReason,
    seller.declineReason,
    seller.proposalReason,
    buyer.disputeDescription,
    buyer.evidence,
    seller.evidence,
  ];
}

/** The seller's last act: a suspension, whose reason the moderation log keeps (ALLOWED). */
async function suspend({ sellerId }: Parties): Promise<void> {
  await post(`/v1/sellers/${sellerId}/suspend`, { reason: seller.suspension });
}

interface Hit {
  table: string;
  column: string;
  value: string;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const likeAny = (values: readonly string[]) => values.map((value) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);

/** The tables of the database, read from the database. */
async function tables(): Promise<string[]> {
  const rows = await ctx.db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  return rows.map((row) => row.table_name);
}

/** Every erased value found in any text, json or jsonb column of any table, outside ALLOWED. */
async function walk(values: readonly string[]): Promise<Hit[]> {
  const columns = await ctx.db.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
        AND c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY')
      ORDER BY c.table_name, c.ordinal_position`,
  );
  const hits: Hit[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    const allowed = ALLOWED.filter((entry) => entry.table === table && entry.column === column).map((entry) => `NOT (${entry.where})`);
    const rows = await ctx.db.query<{ text: string }>(
      `SELECT ${quote(column)}::text AS text FROM ${quote(table)}
        WHERE ${quote(column)}::text LIKE ANY($1::text[]) ${allowed.map((condition) => `AND ${condition}`).join(' ')}`,
      [likeAny(values)],
    );
    for (const row of rows) {
      for (const value of values) if (row.text.includes(value)) hits.push({ table, column, value });
    }
  }
  return hits;
}

describe('erasure reaches every table', () => {
  it('every table of the database is accounted for (a new table must say what it holds of a party)', async () => {
    const unlisted = (await tables()).filter((table) => !(table in TABLES));
    expect(unlisted, 'add each table to TABLES, and a step putting party data in it if it keeps any').toEqual([]);
  });

  it('after DELETE of a seller and a buyer, no table, stored event or stored answer holds their personal data', async () => {
    await subscribeToEverything();
    const other = await createPublishedListing(ctx);
    const sellerRecord = await post('/v1/sellers', {
      external_id: seller.external_id,
      name: seller.name,
      email: seller.email,
      metadata: { phone: seller.metadata },
    });
    const buyerRecord = await post('/v1/buyers', { external_id: buyer.external_id, name: buyer.name, email: buyer.email, metadata: { address: buyer.metadata } });
    const parties: Parties = { sellerId: sellerRecord.id, buyerId: buyerRecord.id, otherListingId: other.id };
    for (const step of [...SELLER_STEPS, ...BUYER_STEPS]) await step(parties);
    const values = [...ERASED_VALUES, ...(await trade(parties))];
    await suspend(parties);

    // The walk finds what it looks for: before erasure, every value is somewhere.
    const before = await walk(values);
    const found = new Set(before.map((hit) => hit.value));
    expect(values.filter((value) => !found.has(value))).toEqual([]);
    const partyTables = Object.keys(TABLES).filter((table) => TABLES[table] === 'party data' && table !== 'moderation_actions');
    expect(partyTables.filter((table) => !before.some((hit) => hit.table === table))).toEqual([]);

    expect((await ctx.request(`/v1/sellers/${sellerRecord.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await ctx.request(`/v1/buyers/${buyerRecord.id}`, { method: 'DELETE' })).status).toBe(200);

    expect(await walk(values)).toEqual([]);

    // What must remain does: the records with erased_at, the flags with their reporters, the log.
    const erasedSeller = (await ctx.request(`/v1/sellers/${sellerRecord.id}`)).body;
    expect(erasedSeller).toMatchObject({ erased_at: expect.any(String), status: 'suspended', name: null, storefront: null });
    const flags = (await ctx.request(`/v1/flags?limit=100`)).body.data.filter((f: Json) => f.reporter === buyerRecord.id || f.reporter === sellerRecord.id);
    expect(flags).toHaveLength(3);
    expect(flags.every((f: Json) => f.description === null)).toBe(true);
    const log = (await ctx.request(`/v1/moderation_actions?target=${sellerRecord.id}`)).body.data;
    expect(log.map((a: Json) => a.reason)).toEqual([seller.suspension]);
  });

  it('a stored answer replayed after erasure answers the erased values', async () => {
    const created = await ctx.request('/v1/buyers', {
      body: { name: `Replay ${T}r`, email: `replay.${T}r@example.com` },
      headers: { 'idempotency-key': 'erasure-walk-replay' },
    });
    const flag = await ctx.request('/v1/flags', {
      body: { target_type: 'buyer', target: created.body.id, reporter: created.body.id, reason: 'other', description: `Self ${T}r` },
      headers: { 'idempotency-key': 'erasure-walk-replay-flag' },
    });
    expect(flag.status).toBe(201);
    await ctx.request(`/v1/buyers/${created.body.id}`, { method: 'DELETE' });
    const replay = await ctx.request('/v1/flags', {
      body: { target_type: 'buyer', target: created.body.id, reporter: created.body.id, reason: 'other', description: `Self ${T}r` },
      headers: { 'idempotency-key': 'erasure-walk-replay-flag' },
    });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toMatchObject({ id: flag.body.id, description: null });
    expect(await walk([`Replay ${T}r`, `replay.${T}r@example.com`, `Self ${T}r`])).toEqual([]);
  });
});
