// Every SQL statement of the webhooks module: endpoints, deliveries, the fan-out written with
// each event, and the dispatcher's claim and batched settle (run by the engine's batch loop,
// src/workers/batch-loop.ts; the lease columns written with its fragments, src/workers/leases.ts).
// Each names marketplace_id and mode; the dispatcher's claim spans modes by design (like the timer
// claim) and names them per row.
import { PLAN_EACH_CALL, type Queryable, type Tx } from '../../db/db.js';
import { selectPage, type PageRequest } from '../../db/paging.js';
import type { WorkStatsRow } from '../../contracts/background.js';
import type { Mode, Scope } from '../../scope.js';
import type { EventType } from '../../contracts/events.js';
import { eventEnvelope, type StoredEventData } from '../../outbox/envelope.js';
import { DROP_LEASE, heldBy, leaseFree, takeLease } from '../../workers/leases.js';
import type { AttemptLogEntry, WebhookDeliveryStatus, WebhookEndpointOrdering, WebhookEndpointStatus } from './schemas.js';

export interface EndpointRow {
  id: string;
  url: string;
  description: string | null;
  enabled_events: string[];
  status: WebhookEndpointStatus;
  disabled_reason: string | null;
  failing_since: Date | null;
  last_success_at: Date | null;
  secret_enc: string;
  rate_limit_per_second: number | null;
  ordering: WebhookEndpointOrdering;
  metadata: Record<string, string>;
  created_at: Date;
}

const ENDPOINT_COLUMNS =
  'id, url, description, enabled_events, status, disabled_reason, failing_since, last_success_at, secret_enc, rate_limit_per_second, ordering, metadata, created_at';

export interface NewEndpoint {
  id: string;
  url: string;
  description: string | null;
  enabledEvents: string[];
  secretEnc: string;
  rateLimitPerSecond: number | null;
  ordering: WebhookEndpointOrdering;
  metadata: Record<string, string>;
}

export async function insertEndpoint(tx: Tx, scope: Scope, e: NewEndpoint, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO webhook_endpoints (marketplace_id, mode, id, url, description, enabled_events, status, secret_enc, rate_limit_per_second, ordering,
                                    metadata, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'enabled', $7, $8, $9, $10, $11, $11)`,
    [scope.marketplaceId, scope.mode, e.id, e.url, e.description, e.enabledEvents, e.secretEnc, e.rateLimitPerSecond, e.ordering, JSON.stringify(e.metadata), now],
  );
}

export async function selectEndpoint(q: Queryable, scope: Scope, id: string): Promise<EndpointRow | null> {
  const rows = await q.query<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE marketplace_id = $1 AND mode = $2 AND id = $3`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

export async function lockEndpoint(tx: Tx, scope: Scope, id: string): Promise<EndpointRow | null> {
  const rows = await tx.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE marketplace_id = $1 AND mode = $2 AND id = $3 FOR UPDATE`,
    [scope.marketplaceId, scope.mode, id],
  );
  return rows[0] ?? null;
}

export function selectEndpoints(q: Queryable, scope: Scope, page: PageRequest): Promise<EndpointRow[]> {
  return selectPage<EndpointRow>(q, {
    sql: `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE marketplace_id = $1 AND mode = $2`,
    params: [scope.marketplaceId, scope.mode],
    page,
  });
}

export interface EndpointChanges {
  url: string;
  description: string | null;
  enabledEvents: string[];
  status: WebhookEndpointStatus;
  disabledReason: string | null;
  failingSince: Date | null;
  rateLimitPerSecond: number | null;
  ordering: WebhookEndpointOrdering;
  metadata: Record<string, string>;
}

export async function updateEndpoint(tx: Tx, scope: Scope, id: string, c: EndpointChanges, now: Date): Promise<void> {
  await tx.query(
    `UPDATE webhook_endpoints SET url = $4, description = $5, enabled_events = $6, status = $7, disabled_reason = $8,
            failing_since = $9, rate_limit_per_second = $10, ordering = $11, metadata = $12, updated_at = $13
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3`,
    [
      scope.marketplaceId,
      scope.mode,
      id,
      c.url,
      c.description,
      c.enabledEvents,
      c.status,
      c.disabledReason,
      c.failingSince,
      c.rateLimitPerSecond,
      c.ordering,
      JSON.stringify(c.metadata),
      now,
    ],
  );
}

export async function updateEndpointSecret(tx: Tx, scope: Scope, id: string, secretEnc: string, now: Date): Promise<void> {
  await tx.query('UPDATE webhook_endpoints SET secret_enc = $4, updated_at = $5 WHERE marketplace_id = $1 AND mode = $2 AND id = $3', [
    scope.marketplaceId,
    scope.mode,
    id,
    secretEnc,
    now,
  ]);
}

export async function countEndpoints(q: Queryable, scope: Scope): Promise<number> {
  const rows = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoints WHERE marketplace_id = $1 AND mode = $2', [
    scope.marketplaceId,
    scope.mode,
  ]);
  return Number(rows[0]!.n);
}

/** Deletes the endpoint and every delivery to it. */
export async function deleteEndpoint(tx: Tx, scope: Scope, id: string): Promise<void> {
  await tx.query('DELETE FROM webhook_deliveries WHERE marketplace_id = $1 AND mode = $2 AND endpoint_id = $3', [scope.marketplaceId, scope.mode, id]);
  await tx.query('DELETE FROM webhook_endpoints WHERE marketplace_id = $1 AND mode = $2 AND id = $3', [scope.marketplaceId, scope.mode, id]);
}

// ---- Deliveries

export interface DeliveryRow {
  id: string;
  mode: Mode;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  replay_of: string | null;
  object_id: string | null;
  status: WebhookDeliveryStatus;
  attempts: number;
  attempt_log: AttemptLogEntry[];
  next_attempt_at: Date | null;
  request_headers: Record<string, string>;
  /** The event's stored data and time (the body is rendered from them: bodyOf). */
  event_data: StoredEventData | null;
  event_created_at: Date | null;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  created_at: Date;
  completed_at: Date | null;
}

// The body is the event's, read from its row (primary key) beside each delivery: nothing is copied.
const EVENT_OF_D = `FROM events ev WHERE ev.marketplace_id = d.marketplace_id AND ev.mode = d.mode AND ev.id = d.event_id`;
const DELIVERY_COLUMNS = `d.id, d.mode, d.endpoint_id, d.event_id, d.event_type, d.replay_of, d.object_id, d.status, d.attempts, d.attempt_log,
  d.next_attempt_at, d.request_headers, (SELECT ev.data ${EVENT_OF_D}) AS event_data, (SELECT ev.created_at ${EVENT_OF_D}) AS event_created_at,
  d.response_status, d.response_body, d.error, d.created_at, d.completed_at`;

/**
 * The body a delivery sends and shows: its event's envelope, rendered from the events row (so an
 * erasure of the event reaches every delivery of it). Events are never deleted; a missing one
 * (which no statement writes) would send an envelope with empty data rather than stop the claim.
 */
export function bodyOf(row: { event_id: string; event_type: string; mode: Mode; event_data: StoredEventData | null; event_created_at: Date | string | null }): string {
  if (row.event_data === null || row.event_created_at === null) {
    return JSON.stringify({ id: row.event_id, object: 'event', type: row.event_type, api_version: 'v1', livemode: row.mode === 'live', data: {} });
  }
  const createdAt = row.event_created_at instanceof Date ? row.event_created_at : new Date(row.event_created_at);
  return JSON.stringify(eventEnvelope({ id: row.event_id, mode: row.mode, type: row.event_type as EventType, data: row.event_data, created_at: createdAt }));
}

export interface NewDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  replayOf: string | null;
  /** The event's data.object.id: a per_object endpoint delivers one at a time per object. */
  objectId: string | null;
  /** Written failed with this error instead of pending (the endpoint is at its pending bound). */
  refusedWith?: string;
}

/**
 * Deliveries due at once (`now`, on the mode's clock): pending, or failed at once with their
 * `refusedWith` error. They carry no body: each refers to its event.
 */
export async function insertDeliveries(tx: Tx, scope: Scope, deliveries: readonly NewDelivery[], now: Date): Promise<void> {
  if (deliveries.length === 0) return;
  await tx.query(
    `INSERT INTO webhook_deliveries (marketplace_id, mode, id, endpoint_id, event_id, event_type, replay_of, object_id, status, next_attempt_at, error,
                                     created_at, completed_at)
     SELECT $1, $2, d.id, d.endpoint_id, d.event_id, d.event_type, d.replay_of, d.object_id,
            CASE WHEN d.error IS NULL THEN 'pending' ELSE 'failed' END, CASE WHEN d.error IS NULL THEN $3::timestamptz END, d.error,
            $3, CASE WHEN d.error IS NOT NULL THEN $3::timestamptz END
       FROM jsonb_to_recordset($4::jsonb) AS d(id text, endpoint_id text, event_id text, event_type text, replay_of text, object_id text, error text)`,
    [
      scope.marketplaceId,
      scope.mode,
      now,
      JSON.stringify(
        deliveries.map((d) => ({
          id: d.id,
          endpoint_id: d.endpointId,
          event_id: d.eventId,
          event_type: d.eventType,
          replay_of: d.replayOf,
          object_id: d.objectId,
          error: d.refusedWith ?? null,
        })),
      ),
    ],
  );
}

/**
 * One replay: a new pending delivery of the event to the endpoint, unless one is pending already
 * (the unique index of pending deliveries per endpoint and event): answers whether it was written.
 */
export async function insertReplay(tx: Tx, scope: Scope, d: Omit<NewDelivery, 'refusedWith'>, now: Date): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO webhook_deliveries (marketplace_id, mode, id, endpoint_id, event_id, event_type, replay_of, object_id, status, next_attempt_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, $9)
     ON CONFLICT (marketplace_id, mode, endpoint_id, event_id) WHERE status = 'pending' DO NOTHING
     RETURNING id`,
    [scope.marketplaceId, scope.mode, d.id, d.endpointId, d.eventId, d.eventType, d.replayOf, d.objectId, now],
  );
  return rows.length > 0;
}

/** The endpoint's pending delivery of the event, if any (there is at most one). */
export async function selectPendingOfEvent(q: Queryable, scope: Scope, endpointId: string, eventId: string): Promise<DeliveryRow | null> {
  const rows = await q.query<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
      WHERE d.marketplace_id = $1 AND d.mode = $2 AND d.endpoint_id = $3 AND d.event_id = $4 AND d.status = 'pending'`,
    [scope.marketplaceId, scope.mode, endpointId, eventId],
  );
  return rows[0] ?? null;
}

/**
 * A pending delivery waiting for its next retry, and not under way, is made due now (a replay of
 * it asks for an attempt now); answers whether it moved.
 */
export async function updatePendingDueNow(tx: Tx, scope: Scope, id: string, now: Date, realNow: Date): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE webhook_deliveries SET next_attempt_at = $4
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3 AND status = 'pending' AND next_attempt_at > $4
        AND ${leaseFree('webhook_deliveries', '$5')}
      RETURNING id`,
    [scope.marketplaceId, scope.mode, id, now, realNow],
  );
  return rows.length > 0;
}

/** The endpoint's pending deliveries, counted up to `upTo` (enough to compare with the bound). */
export async function countPendingDeliveries(q: Queryable, scope: Scope, endpointId: string, upTo: number): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (
       SELECT 1 FROM webhook_deliveries WHERE marketplace_id = $1 AND mode = $2 AND endpoint_id = $3 AND status = 'pending' LIMIT $4
     ) pending`,
    [scope.marketplaceId, scope.mode, endpointId, upTo],
  );
  return Number(rows[0]!.n);
}

/**
 * The fan-out's view of the bound: every endpoint with pending deliveries (found as the claim finds
 * them, one probe each), and every endpoint flagged full, has `pending_full` set to whether it has
 * `bound` pending deliveries or more (counted up to the bound, from webhook_deliveries_endpoint_due_idx);
 * only the flags that change are written. Answers how many changed.
 */
export async function updatePendingFull(q: Queryable, bound: number): Promise<number> {
  const rows = await q.query(
    `WITH RECURSIVE endpoints AS (
       (SELECT d.endpoint_id FROM webhook_deliveries d WHERE d.status = 'pending' ORDER BY d.endpoint_id LIMIT 1)
       UNION ALL
       SELECT nxt.endpoint_id FROM endpoints CROSS JOIN LATERAL (
         SELECT d.endpoint_id FROM webhook_deliveries d
          WHERE d.status = 'pending' AND d.endpoint_id > endpoints.endpoint_id ORDER BY d.endpoint_id LIMIT 1
       ) nxt
     ),
     checked AS (
       SELECT e.marketplace_id, e.mode, e.id,
              (SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries d WHERE d.status = 'pending' AND d.endpoint_id = e.id LIMIT $1) pending) >= $1 AS full
         FROM webhook_endpoints e
        WHERE e.pending_full OR e.id IN (SELECT endpoint_id FROM endpoints)
     )
     UPDATE webhook_endpoints e SET pending_full = c.full
       FROM checked c
      WHERE e.marketplace_id = c.marketplace_id AND e.mode = c.mode AND e.id = c.id AND e.pending_full <> c.full
     RETURNING e.id`,
    [bound],
  );
  return rows.length;
}

/** GET /metrics: the deliveries written failed because their endpoint was at its pending bound (still kept), per mode. */
export function countDeliveriesOverBound(q: Queryable): Promise<Array<{ label: string; value: number }>> {
  return q.query<{ label: string; value: number }>(
    `SELECT mode AS label, count(*)::float8 AS value FROM webhook_deliveries WHERE error = 'pending_limit_exceeded' GROUP BY mode`,
  );
}

/**
 * One page of replay_failed: the endpoint's failed deliveries (created at or after `since`, when
 * given), oldest first, at most `limit` of them after `afterId` and before `beforeId` (paging by
 * id). Each event of the page is considered once (its latest failed delivery of the page is the
 * one replayed, named by replay_of), and gets a new pending delivery unless it already has a
 * pending one or was replayed since the call began (a delivery of it to the endpoint with an id
 * after `beforeId`), at most `room` of them, in one statement. Answers the page's size and last
 * id, how many were written, and how many wanted writing (more than `room`: the bound stopped it).
 */
export async function insertReplaysOfFailed(
  tx: Tx,
  scope: Scope,
  endpointId: string,
  page: { since: Date | null; afterId: string | null; beforeId: string; limit: number; room: number },
  newIds: readonly string[],
  now: Date,
): Promise<{ scanned: number; lastId: string | null; replayed: number; wanted: number }> {
  const rows = await tx.query<{ scanned: number; last_id: string | null; replayed: number; wanted: number }>(
    `WITH scanned AS (
       SELECT d.id, d.event_id, d.event_type, d.object_id
         FROM webhook_deliveries d
        WHERE d.marketplace_id = $1 AND d.mode = $2 AND d.endpoint_id = $3 AND d.status = 'failed'
          AND ($4::timestamptz IS NULL OR d.created_at >= $4) AND ($5::text IS NULL OR d.id > $5) AND d.id < $9
        ORDER BY d.id LIMIT $6
     ),
     wanted AS (
       SELECT l.* FROM (SELECT DISTINCT ON (s.event_id) s.* FROM scanned s ORDER BY s.event_id, s.id DESC) l
        WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries o
                           WHERE o.marketplace_id = $1 AND o.mode = $2 AND o.event_id = l.event_id AND o.endpoint_id = $3
                             AND (o.status = 'pending' OR o.id > $9))
     ),
     fresh AS (
       SELECT w.*, row_number() OVER (ORDER BY w.id) AS n FROM wanted w ORDER BY w.id LIMIT $10
     ),
     inserted AS (
       INSERT INTO webhook_deliveries (marketplace_id, mode, id, endpoint_id, event_id, event_type, replay_of, object_id, status, next_attempt_at, created_at)
       SELECT $1, $2, ($7::text[])[f.n], $3, f.event_id, f.event_type, f.id, f.object_id, 'pending', $8, $8
         FROM fresh f ORDER BY f.n
       ON CONFLICT (marketplace_id, mode, endpoint_id, event_id) WHERE status = 'pending' DO NOTHING
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM scanned)::int AS scanned, (SELECT max(id) FROM scanned) AS last_id,
            (SELECT count(*) FROM inserted)::int AS replayed, (SELECT count(*) FROM wanted)::int AS wanted`,
    [scope.marketplaceId, scope.mode, endpointId, page.since, page.afterId, page.limit, newIds, now, page.beforeId, page.room],
  );
  const row = rows[0]!;
  return { scanned: Number(row.scanned), lastId: row.last_id, replayed: Number(row.replayed), wanted: Number(row.wanted) };
}

/** The enabled endpoints of the mode subscribed to any of the types (or to '*'), with their subscriptions. */
export async function selectEndpointsSubscribedToAny(
  q: Queryable,
  scope: Scope,
  types: readonly string[],
): Promise<Array<{ id: string; enabled_events: string[]; pending_full: boolean }>> {
  return q.query<{ id: string; enabled_events: string[]; pending_full: boolean }>(
    `SELECT id, enabled_events, pending_full FROM webhook_endpoints
      WHERE marketplace_id = $1 AND mode = $2 AND status = 'enabled' AND enabled_events && ('{*}'::text[] || $3::text[])
      ORDER BY id`,
    [scope.marketplaceId, scope.mode, types],
  );
}

/** The enabled endpoints of the mode subscribed to the type (or to '*'), each with whether it is at its pending bound. */
export function selectSubscribedEndpoints(q: Queryable, scope: Scope, type: string): Promise<Array<{ id: string; pending_full: boolean }>> {
  return q.query<{ id: string; pending_full: boolean }>(
    `SELECT id, pending_full FROM webhook_endpoints
      WHERE marketplace_id = $1 AND mode = $2 AND status = 'enabled' AND enabled_events && ARRAY['*', $3]::text[]
      ORDER BY id`,
    [scope.marketplaceId, scope.mode, type],
  );
}

export async function selectDelivery(q: Queryable, scope: Scope, id: string): Promise<DeliveryRow | null> {
  const rows = await q.query<DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.marketplace_id = $1 AND d.mode = $2 AND d.id = $3`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

/** Newest first; served by the primary key, webhook_deliveries_endpoint_idx or webhook_deliveries_status_idx. */
export function selectDeliveries(
  q: Queryable,
  scope: Scope,
  page: PageRequest,
  filter: { endpointId?: string; status?: WebhookDeliveryStatus },
): Promise<DeliveryRow[]> {
  return selectPage<DeliveryRow>(q, {
    sql: `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.marketplace_id = $1 AND d.mode = $2`,
    params: [scope.marketplaceId, scope.mode],
    equals: { endpoint_id: filter.endpointId, status: filter.status },
    page,
  });
}

/** An endpoint's pending deliveries fail at once with `error` (the endpoint was disabled). */
export async function failPendingDeliveries(tx: Tx, scope: Scope, endpointId: string, error: string, now: Date): Promise<void> {
  await tx.query(
    `UPDATE webhook_deliveries SET status = 'failed', error = $4, next_attempt_at = NULL, completed_at = $5, ${DROP_LEASE}
      WHERE marketplace_id = $1 AND mode = $2 AND endpoint_id = $3 AND status = 'pending'`,
    [scope.marketplaceId, scope.mode, endpointId, error, now],
  );
}

/** Retention: up to `limit` of the oldest deliveries created before `before` that are no longer pending. */
export async function deleteOldDeliveries(tx: Tx, before: Date, limit: number): Promise<number> {
  const rows = await tx.query(
    `DELETE FROM webhook_deliveries d USING (
       SELECT marketplace_id, mode, id FROM webhook_deliveries
        WHERE created_at < $1 AND status <> 'pending' ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED
     ) old
     WHERE d.marketplace_id = old.marketplace_id AND d.mode = old.mode AND d.id = old.id RETURNING d.id`,
    [before, limit],
  );
  return rows.length;
}

// ---- The dispatcher's claim and settle

export interface ClaimedRow {
  /** The row's ctid after the claim: the settle finds it by this, with no index to choose. */
  row_id: string;
  marketplace_id: string;
  mode: Mode;
  id: string;
  endpoint_id: string;
  event_id: string;
  attempts: number;
  /** The body to send: the event's envelope, rendered from the event's row read by the claim. */
  request_body: string;
  url: string;
  secret_enc: string;
  offset_ms: number;
  /** A rate-limited endpoint's sending slot (real time): the attempt starts no earlier. */
  send_at: Date | null;
  /** The endpoint's rate limit when it has one (the slots are 1/rate s apart). */
  rate: number | null;
}

export interface ClaimRequest {
  realNow: Date;
  limit: number;
  /** Rows one endpoint may give one claim at most. */
  scan: number;
  /** Endpoints with no slot left in this process: passed over. */
  fullEndpoints: string[];
  /** Endpoints with some slots taken: how many each may still take. */
  partialEndpoints: string[];
  partialSlots: number[];
  perEndpoint: number;
  /** Tenants (`marketplace_id/mode`) with no slot left in this process: their endpoints are passed over. */
  fullTenants: string[];
  /** Tenants with some slots taken: how many each may still take. */
  partialTenants: string[];
  tenantSlots: number[];
  /** What a tenant with nothing in flight here may take. */
  perTenant: number;
  lockedBy: string;
  leaseMs: number;
  /** How far ahead a rate-limited endpoint's sending slots may be handed out. */
  horizonMs: number;
  /** Only this mode's deliveries (a test-clock advance). */
  only: Scope | null;
}

// Due: pending, next_attempt_at reached on the row's mode clock, and no live lease. The claim
// walks the endpoints that have pending rows (a loose index scan of webhook_deliveries_endpoint_due_idx,
// one probe per endpoint) and takes each endpoint's due rows in order, up to the slots it has left
// here, from the same index; endpoints at their cap are not read at all. So a dead endpoint's
// backlog of due rows costs the claim nothing, however deep it grows. Of the rows found, the
// tenants' turns (below) are taken, up to the batch; they are found again by ctid in the UPDATE. The bound
// by the largest test-clock offset is an index condition, so a scan stops at the first row not yet
// due; each row's own mode offset is then a filter. Planned with its values on every call, like
// the settle below: whether it names one mode or all of them decides the plan.
//
// Fair between tenants (a marketplace and mode; docs/webhooks.md): endpoints of a tenant with no
// slot left in this process are passed over unread, like full endpoints; an endpoint gives no more
// rows than its tenant's slots; and the rows found are taken in turns: every tenant's earliest due
// row first, then every tenant's second, and so on (row_number per tenant), so a tenant with
// thousands of due rows gets one turn per round like a tenant with one.
//
// Delivery controls (docs/decisions/webhooks.md):
// - A rate-limited endpoint's row is locked by the claim (SKIP LOCKED: another process claiming at
//   the same moment passes over it and takes it at its next claim). It may give as many rows as
//   sending slots fall before `now + horizon` from its next free slot (next_send_at, or now if
//   that passed); each claimed row gets its slot (`send_at`: the dispatcher waits for it) 1/rate s
//   after the previous one, and next_send_at moves past the last, in this same statement. So every
//   process together sends at the rate, never faster, and nothing is dropped.
// - A per_object endpoint gives only rows with no older pending row of the same object (the one
//   under way, or waiting for its retry, holds the next): one at a time per object, in id order.
//   Other objects' rows are not held, and SKIP LOCKED cannot let a second row of an object through,
//   since the older row is still pending in every snapshot until its outcome is recorded.
const OFFSET_OF_D = `(SELECT m.clock_offset_ms FROM marketplace_modes m WHERE m.marketplace_id = d.marketplace_id AND m.mode = d.mode)`;
const SLOTS_BEFORE_HORIZON = `greatest(0, floor(extract(epoch FROM $1::timestamptz + make_interval(secs => $12::int / 1000.0) - p.base) * p.rate)::int + 1)`;
const CLAIM_SQL = `${PLAN_EACH_CALL}
WITH RECURSIVE endpoints AS (
  (SELECT d.endpoint_id, d.marketplace_id, d.mode FROM webhook_deliveries d WHERE d.status = 'pending' ORDER BY d.endpoint_id LIMIT 1)
  UNION ALL
  SELECT nxt.* FROM endpoints CROSS JOIN LATERAL (
    SELECT d.endpoint_id, d.marketplace_id, d.mode FROM webhook_deliveries d
     WHERE d.status = 'pending' AND d.endpoint_id > endpoints.endpoint_id ORDER BY d.endpoint_id LIMIT 1
  ) nxt
),
listed AS (
  SELECT e.marketplace_id, e.mode, e.id, e.rate_limit_per_second AS rate, e.ordering = 'per_object' AS ordered,
         coalesce(tenants.free, $16::int) AS tenant_free
    FROM endpoints JOIN webhook_endpoints e ON e.marketplace_id = endpoints.marketplace_id AND e.mode = endpoints.mode AND e.id = endpoints.endpoint_id
    LEFT JOIN unnest($14::text[], $15::int[]) AS tenants(tenant, free) ON tenants.tenant = e.marketplace_id || '/' || e.mode
   WHERE endpoints.endpoint_id <> ALL($3::text[]) AND endpoints.marketplace_id || '/' || endpoints.mode <> ALL($13::text[])
),
paced AS (
  SELECT e.marketplace_id, e.mode, e.id, e.rate_limit_per_second AS rate, greatest(e.next_send_at, $1::timestamptz) AS base
    FROM webhook_endpoints e JOIN listed l ON e.marketplace_id = l.marketplace_id AND e.mode = l.mode AND e.id = l.id
   WHERE l.rate IS NOT NULL AND e.rate_limit_per_second IS NOT NULL
     FOR UPDATE OF e SKIP LOCKED
),
candidates AS (
  SELECT c.*, l.id AS endpoint_id, l.marketplace_id, l.mode, l.tenant_free FROM listed l
  LEFT JOIN paced p ON p.marketplace_id = l.marketplace_id AND p.mode = l.mode AND p.id = l.id
  LEFT JOIN unnest($5::text[], $6::int[]) AS slots(endpoint_id, free) ON slots.endpoint_id = l.id
  CROSS JOIN LATERAL (
    SELECT d.ctid AS row_id, d.id, d.next_attempt_at
      FROM webhook_deliveries d
     WHERE d.status = 'pending' AND d.endpoint_id = l.id
       AND d.next_attempt_at <= $1::timestamptz + make_interval(secs => (SELECT coalesce(max(clock_offset_ms), 0) FROM marketplace_modes) / 1000.0)
       AND d.next_attempt_at <= $1::timestamptz + make_interval(secs => ${OFFSET_OF_D} / 1000.0)
       AND ${leaseFree('d', '$1')}
       AND ($9::text IS NULL OR (d.marketplace_id = $9 AND d.mode = $10))
       AND (NOT l.ordered OR d.object_id IS NULL OR NOT EXISTS (
             SELECT 1 FROM webhook_deliveries o
              WHERE o.endpoint_id = d.endpoint_id AND o.object_id = d.object_id AND o.id < d.id
                AND o.next_attempt_at IS NOT NULL AND o.object_id IS NOT NULL))
     ORDER BY d.next_attempt_at
     LIMIT least(coalesce(slots.free, $7::int), l.tenant_free, $4::int,
                 CASE WHEN l.rate IS NULL THEN $4::int WHEN p.id IS NULL THEN 0 ELSE ${SLOTS_BEFORE_HORIZON} END)
     FOR UPDATE SKIP LOCKED
  ) c
),
turns AS (
  SELECT row_id, endpoint_id, id, next_attempt_at, tenant_free,
         row_number() OVER (PARTITION BY marketplace_id, mode ORDER BY next_attempt_at, id) AS turn
    FROM candidates
),
picked AS (
  SELECT row_id, endpoint_id, id, next_attempt_at FROM turns WHERE turn <= tenant_free ORDER BY turn, next_attempt_at, id LIMIT $2
),
numbered AS (
  SELECT row_id, endpoint_id, (row_number() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at, id) - 1)::int AS k FROM picked
),
moved AS (
  UPDATE webhook_endpoints e SET next_send_at = p.base + make_interval(secs => n.taken / p.rate::float8)
    FROM paced p JOIN (SELECT endpoint_id, count(*) AS taken FROM picked GROUP BY endpoint_id) n ON n.endpoint_id = p.id
   WHERE e.marketplace_id = p.marketplace_id AND e.mode = p.mode AND e.id = p.id
  RETURNING e.id
)
UPDATE webhook_deliveries d
   SET ${takeLease('$8', '$1', '($11::int + $12::int)')}
  FROM numbered nb LEFT JOIN paced p ON p.id = nb.endpoint_id, webhook_endpoints e
 WHERE d.ctid = nb.row_id
   AND e.marketplace_id = d.marketplace_id AND e.mode = d.mode AND e.id = d.endpoint_id
RETURNING d.ctid::text AS row_id, d.marketplace_id, d.mode, d.id, d.endpoint_id, d.event_id, d.event_type, d.attempts,
          (SELECT ev.data ${EVENT_OF_D}) AS event_data, (SELECT ev.created_at ${EVENT_OF_D}) AS event_created_at, e.url, e.secret_enc,
          ${OFFSET_OF_D} AS offset_ms,
          CASE WHEN p.id IS NULL THEN NULL ELSE p.base + make_interval(secs => nb.k / p.rate::float8) END AS send_at, p.rate`;

/**
 * One statement, so it may run on its own (autocommit, one round trip): the dispatcher claims
 * without an explicit transaction. A Tx works the same.
 */
/** What the claim reads of the delivery's event, to render the body. */
interface EventOfClaim {
  event_type: string;
  event_data: StoredEventData | null;
  event_created_at: Date | null;
}

export async function claimDueDeliveries(q: Queryable | Tx, r: ClaimRequest): Promise<ClaimedRow[]> {
  const rows = await q.query<ClaimedRow>(CLAIM_SQL, [
    r.realNow,
    r.limit,
    r.fullEndpoints,
    r.scan,
    r.partialEndpoints,
    r.partialSlots,
    r.perEndpoint,
    r.lockedBy,
    r.only?.marketplaceId ?? null,
    r.only?.mode ?? null,
    r.leaseMs,
    r.horizonMs,
    r.fullTenants,
    r.partialTenants,
    r.tenantSlots,
    r.perTenant,
  ]);
  // Converted in place: one object per claimed row, however many fields it gains after. The body is
  // rendered from the event's row here, and the raw event fields dropped.
  for (const row of rows as Array<ClaimedRow & EventOfClaim>) {
    row.request_body = bodyOf(row);
    // Let go of the parsed event (the claim is held until its outcome is recorded); no delete, which
    // would turn every claimed row into a slow dictionary object.
    row.event_data = null;
    row.attempts = Number(row.attempts);
    row.offset_ms = Number(row.offset_ms);
    if (row.send_at !== null && !(row.send_at instanceof Date)) row.send_at = new Date(row.send_at);
  }
  return rows;
}

export interface SettledRow {
  row_id: string;
  marketplace_id: string;
  mode: Mode;
  id: string;
  locked_by: string;
  status: WebhookDeliveryStatus;
  log: AttemptLogEntry;
  next_attempt_at: string | null;
  headers: Record<string, string>;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  completed_at: string | null;
}

const SET_OUTCOME = `status = o.status, attempts = d.attempts + 1, attempt_log = d.attempt_log || jsonb_build_array(o.log),
         next_attempt_at = o.next_attempt_at, request_headers = o.headers, response_status = o.response_status,
         response_body = o.response_body, error = o.error, completed_at = o.completed_at, ${DROP_LEASE}`;
const OUTCOMES = `jsonb_to_recordset($2::jsonb) AS o(row_id tid, marketplace_id text, mode text, id text, locked_by text, status text, log jsonb,
         next_attempt_at timestamptz, headers jsonb, response_status int, response_body text, error text, completed_at timestamptz)`;
// "Still pending" is written `next_attempt_at IS NOT NULL` (the same thing, by the table's CHECK
// constraint) rather than `status = 'pending'`: that one proves the partial index of pending rows
// usable, and with statistics that lag behind a growing backlog the planner then prefers scanning
// every pending row to the TID scan (seen at 8,000 pending rows: 30 ms per settle instead of 5).
const FENCE = `d.marketplace_id = o.marketplace_id AND d.mode = o.mode AND d.id = o.id AND ${heldBy('d', 'o.locked_by')} AND d.next_attempt_at IS NOT NULL`;

// The deliveries are found by the ctids their claim returned (a TID scan, whose cost is the
// batch's, however deep a dead endpoint's backlog grows); the fence on id and locked_by makes a
// stale ctid match nothing. For the planner to keep to the TID scan, the statement is planned with
// its values on every call and its fence stays off the pending index (FENCE): otherwise, with
// statistics behind a fast-growing backlog, it scanned every pending row on every settle.
const SETTLE_SQL = `${PLAN_EACH_CALL}
WITH health AS (
  UPDATE webhook_endpoints e
     SET last_success_at = CASE WHEN h.last_success IS NULL THEN e.last_success_at ELSE greatest(e.last_success_at, h.last_success) END,
         failing_since = CASE WHEN h.last_success IS NULL THEN coalesce(e.failing_since, h.failing_from) ELSE h.failing_from END
    FROM (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(marketplace_id text, mode text, id text, last_success timestamptz,
          failing_from timestamptz, latest_failure timestamptz) ORDER BY marketplace_id, mode, id) h
   WHERE e.marketplace_id = h.marketplace_id AND e.mode = h.mode AND e.id = h.id
  RETURNING e.marketplace_id, e.mode, e.id, h.latest_failure AS at,
            (e.status = 'enabled' AND h.latest_failure IS NOT NULL
             AND e.failing_since <= h.latest_failure - make_interval(secs => $3::bigint / 1000.0)) AS disable
),
settled AS (
  UPDATE webhook_deliveries d SET ${SET_OUTCOME}
    FROM ${OUTCOMES}
   WHERE d.ctid = o.row_id AND ${FENCE}
  RETURNING d.id
)
SELECT 'disable' AS kind, marketplace_id, mode, id, at FROM health WHERE disable
UNION ALL
SELECT 'settled', NULL, NULL, id, NULL FROM settled`;

// The same by primary key, for outcomes whose row moved since its claim (an erasure rewrote it).
const SETTLE_BY_KEY_SQL = `
UPDATE webhook_deliveries d SET ${SET_OUTCOME}
  FROM ${OUTCOMES}
 WHERE d.marketplace_id = o.marketplace_id AND d.mode = o.mode AND d.id = o.id AND ${heldBy('d', 'o.locked_by')} AND d.status = 'pending'
   AND d.marketplace_id = ANY($1::text[]) AND d.id = ANY($3::text[])
RETURNING d.id`;

/**
 * Records many attempts and their endpoints' health in one statement (one round trip, atomic on
 * its own), each delivery fenced by its claim; answers the enabled endpoints whose every delivery
 * has now failed for `disableAfterMs`.
 */
export async function updateSettledDeliveries(
  q: Queryable | Tx,
  settled: readonly SettledRow[],
  health: readonly EndpointHealth[],
  disableAfterMs: number,
): Promise<Array<{ marketplace_id: string; mode: Mode; id: string; at: Date }>> {
  const rows = await q.query<{ kind: 'disable' | 'settled'; marketplace_id: string; mode: Mode; id: string; at: Date }>(SETTLE_SQL, [
    JSON.stringify(health),
    JSON.stringify(settled),
    disableAfterMs,
  ]);
  const recorded = new Set(rows.filter((row) => row.kind === 'settled').map((row) => row.id));
  const moved = settled.filter((row) => !recorded.has(row.id));
  if (moved.length > 0) {
    await q.query(SETTLE_BY_KEY_SQL, [[...new Set(moved.map((row) => row.marketplace_id))], JSON.stringify(moved), moved.map((row) => row.id)]);
  }
  return rows.filter((row) => row.kind === 'disable');
}

/** Hands claimed deliveries back (the worker stopped before attempting them). */
export async function releaseClaims(q: Queryable | Tx, claims: ReadonlyArray<{ marketplace_id: string; mode: Mode; id: string; locked_by: string }>): Promise<void> {
  if (claims.length === 0) return;
  await q.query(
    `UPDATE webhook_deliveries d SET ${DROP_LEASE}
       FROM jsonb_to_recordset($1::jsonb) AS o(marketplace_id text, mode text, id text, locked_by text)
      WHERE d.marketplace_id = o.marketplace_id AND d.mode = o.mode AND d.id = o.id AND ${heldBy('d', 'o.locked_by')}`,
    [JSON.stringify(claims)],
  );
}

export interface EndpointHealth {
  marketplace_id: string;
  mode: Mode;
  id: string;
  /** The latest success of the batch, or null. */
  last_success: string | null;
  /** The earliest failure after that success (or of the batch, without one), or null. */
  failing_from: string | null;
  /** The latest failure of the batch: the time the 3-day rule is judged at. */
  latest_failure: string | null;
}

/**
 * GET /metrics' figures of the deliveries still to make, across every marketplace and mode (like
 * the claim): pending rows (the partial index of pending rows serves it), those under a live
 * lease, those whose last attempt failed (waiting for a retry), and how long the longest-due one
 * not under a live lease has waited, on its mode's clock. No pending row: no row.
 */
export function selectDeliveryWork(q: Queryable, realNow: Date): Promise<WorkStatsRow[]> {
  return q.query<WorkStatsRow>(
    `SELECT 'webhook_delivery' AS kind,
            count(*)::int AS queued,
            count(*) FILTER (WHERE d.locked_until > $1)::int AS in_flight,
            count(*) FILTER (WHERE d.attempts > 0)::int AS failed,
            max(extract(epoch FROM $1::timestamptz + make_interval(secs => coalesce(${OFFSET_OF_D}, 0) / 1000.0) - d.next_attempt_at))
              FILTER (WHERE ${leaseFree('d', '$1')})::float8 AS oldest
       FROM webhook_deliveries d
      WHERE d.status = 'pending'
     HAVING count(*) > 0`,
    [realNow],
  );
}
