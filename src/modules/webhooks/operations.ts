// Webhook endpoint and delivery operations. Each owns its transaction. Lock order: the endpoint
// row, then its deliveries (the dispatcher's settle takes them in the same order).
import type { Tx } from '../../db/db.js';
import { pageRequest, toList, type ListEnvelope } from '../../db/paging.js';
import { errors } from '../../errors.js';
import { isEventType, type EventCatalog } from '../../contracts/events.js';
import { isIdOf, newId } from '../../ids.js';
import { modeNow, type Scope } from '../../scope.js';
import { encryptSecret } from '../../secrets.js';
import { timeInput } from '../../http/schemas.js';
import type { OperationContext } from '../../contracts/context.js';
import { lockModeForBound } from '../marketplaces/index.js';
import { destinationPolicy, destinationRules, refusalOfUrl } from './destination.js';
import { failPendingOfDisabled } from './health.js';
import * as queries from './queries.js';
import type {
  CreateWebhookEndpointBody,
  DeletedWebhookEndpoint,
  ListWebhookDeliveriesQuery,
  ListWebhookEndpointsQuery,
  ReplayFailedDeliveriesBody,
  UpdateWebhookEndpointBody,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookReplay,
} from './schemas.js';
import { serializeDelivery, serializeEndpoint } from './serialize.js';
import { newSigningSecret } from './signature.js';
import { signalDeliveriesOnCommit } from './wake.js';

/** The context the signing secret is encrypted under: a ciphertext copied to another endpoint does not decrypt. */
export function secretContext(scope: Scope, endpointId: string): string {
  return `webhook_endpoint:${scope.marketplaceId}:${scope.mode}:${endpointId}`;
}

function checkEnabledEvents(catalog: EventCatalog, events: readonly string[]): string[] {
  events.forEach((type, i) => {
    if (type !== '*' && !isEventType(catalog, type)) {
      throw errors.invalidRequest(`Unknown event type '${type}'; use '*' or one of the event types of the API reference.`, `enabled_events[${i}]`);
    }
  });
  return [...new Set(events)];
}

async function checkUrl(ctx: OperationContext, url: string): Promise<void> {
  const refusal = await refusalOfUrl(url, destinationPolicy(destinationRules(ctx.config), ctx.scope.mode));
  if (refusal !== null) throw errors.invalidRequest(`The url ${refusal}.`, 'url');
}

/** Every endpoint takes a delivery row per event in the event's transaction: the count is bounded. */
async function checkEndpointBound(ctx: OperationContext, tx: Tx): Promise<void> {
  await lockModeForBound(tx, ctx.scope);
  const limit = ctx.config.limits.webhookEndpoints;
  if ((await queries.countEndpoints(tx, ctx.scope)) >= limit) {
    throw errors.limitExceeded('Webhook endpoints per mode', limit, 'MAX_WEBHOOK_ENDPOINTS', 'delete one before creating another');
  }
}

export async function createWebhookEndpoint(ctx: OperationContext, body: CreateWebhookEndpointBody): Promise<WebhookEndpoint> {
  const { scope } = ctx;
  const enabledEvents = checkEnabledEvents(ctx.hooks.eventCatalog, body.enabled_events);
  // Resolving the name is network I/O: done before the transaction opens.
  await checkUrl(ctx, body.url);
  const id = newId('webhookEndpoint');
  const secret = newSigningSecret();
  return ctx.db.transaction(async (tx) => {
    await checkEndpointBound(ctx, tx);
    const now = await modeNow(tx, ctx.clock, scope);
    await queries.insertEndpoint(
      tx,
      scope,
      {
        id,
        url: body.url,
        description: body.description ?? null,
        enabledEvents,
        secretEnc: encryptSecret(ctx.config.secretKey, secret, secretContext(scope, id)),
        rateLimitPerSecond: body.rate_limit_per_second ?? null,
        ordering: body.ordering ?? 'none',
        metadata: body.metadata ?? {},
      },
      now,
    );
    const row = await queries.selectEndpoint(tx, scope, id);
    return serializeEndpoint(row!, secret);
  });
}

export async function retrieveWebhookEndpoint(ctx: OperationContext, id: string): Promise<WebhookEndpoint> {
  const row = await queries.selectEndpoint(ctx.db, ctx.scope, id);
  if (!row) throw errors.missing('webhook endpoint', id, 'id');
  return serializeEndpoint(row);
}

export async function listWebhookEndpoints(ctx: OperationContext, query: ListWebhookEndpointsQuery): Promise<ListEnvelope<WebhookEndpoint>> {
  const page = pageRequest(query, 'webhookEndpoint');
  const rows = await queries.selectEndpoints(ctx.db, ctx.scope, page);
  return toList(
    rows.map((row) => serializeEndpoint(row)),
    page.limit,
  );
}

/**
 * PATCH: fields left out stay. Disabling fails the pending deliveries with `endpoint_disabled`
 * and leaves `disabled_reason` null; enabling clears `disabled_reason` and `failing_since`.
 */
export async function updateWebhookEndpoint(ctx: OperationContext, id: string, body: UpdateWebhookEndpointBody): Promise<WebhookEndpoint> {
  const { scope } = ctx;
  const enabledEvents = body.enabled_events !== undefined ? checkEnabledEvents(ctx.hooks.eventCatalog, body.enabled_events) : undefined;
  if (body.url !== undefined) await checkUrl(ctx, body.url);
  return ctx.db.transaction(async (tx) => {
    const now = await modeNow(tx, ctx.clock, scope);
    const row = await queries.lockEndpoint(tx, scope, id);
    if (!row) throw errors.missing('webhook endpoint', id, 'id');
    const status = body.status ?? row.status;
    const turnedOff = row.status === 'enabled' && status === 'disabled';
    const turnedOn = row.status === 'disabled' && status === 'enabled';
    await queries.updateEndpoint(
      tx,
      scope,
      id,
      {
        url: body.url ?? row.url,
        description: body.description !== undefined ? body.description : row.description,
        enabledEvents: enabledEvents ?? row.enabled_events,
        status,
        disabledReason: turnedOn || turnedOff ? null : row.disabled_reason,
        failingSince: turnedOn ? null : row.failing_since,
        rateLimitPerSecond: body.rate_limit_per_second !== undefined ? body.rate_limit_per_second : row.rate_limit_per_second,
        ordering: body.ordering ?? row.ordering,
        metadata: body.metadata ?? row.metadata,
      },
      now,
    );
    if (turnedOff) await failPendingOfDisabled(tx, scope, id, now);
    return serializeEndpoint((await queries.selectEndpoint(tx, scope, id))!);
  });
}

export async function deleteWebhookEndpoint(ctx: OperationContext, id: string): Promise<DeletedWebhookEndpoint> {
  const { scope } = ctx;
  return ctx.db.transaction(async (tx) => {
    const row = await queries.lockEndpoint(tx, scope, id);
    if (!row) throw errors.missing('webhook endpoint', id, 'id');
    await queries.deleteEndpoint(tx, scope, id);
    return { object: 'webhook_endpoint', id, deleted: true };
  });
}

/** A new secret, in force at once: attempts claimed from now on are signed with it. */
export async function rotateWebhookEndpointSecret(ctx: OperationContext, id: string): Promise<WebhookEndpoint> {
  const { scope } = ctx;
  const secret = newSigningSecret();
  return ctx.db.transaction(async (tx) => {
    const now = await modeNow(tx, ctx.clock, scope);
    const row = await queries.lockEndpoint(tx, scope, id);
    if (!row) throw errors.missing('webhook endpoint', id, 'id');
    await queries.updateEndpointSecret(tx, scope, id, encryptSecret(ctx.config.secretKey, secret, secretContext(scope, id)), now);
    return serializeEndpoint((await queries.selectEndpoint(tx, scope, id))!, secret);
  });
}

export async function retrieveWebhookDelivery(ctx: OperationContext, id: string): Promise<WebhookDelivery> {
  const row = await queries.selectDelivery(ctx.db, ctx.scope, id);
  if (!row) throw errors.missing('webhook delivery', id, 'id');
  return serializeDelivery(row);
}

export async function listWebhookDeliveries(ctx: OperationContext, query: ListWebhookDeliveriesQuery): Promise<ListEnvelope<WebhookDelivery>> {
  const page = pageRequest(query, 'webhookDelivery');
  if (query.endpoint !== undefined && !isIdOf('webhookEndpoint', query.endpoint)) {
    throw errors.invalidRequest(`endpoint must be a webhook endpoint id ('${query.endpoint}' is not).`, 'endpoint');
  }
  const rows = await queries.selectDeliveries(ctx.db, ctx.scope, page, { endpointId: query.endpoint, status: query.status });
  return toList(rows.map(serializeDelivery), page.limit);
}

/** The endpoint's bound of pending deliveries, as the 409 of a replay past it. */
function pendingBoundError(ctx: OperationContext, advice: string): Error {
  return errors.limitExceeded('Pending deliveries per webhook endpoint', ctx.config.limits.webhookPendingDeliveries, 'MAX_PENDING_WEBHOOK_DELIVERIES', advice);
}

/**
 * A replay of one delivery: a new pending delivery of its event to its endpoint (201), unless the
 * event already has a pending delivery to that endpoint: then that one is answered (200), made due
 * now if it was waiting for a retry. Bounded: a new one past the endpoint's bound of pending
 * deliveries is refused (409 limit_exceeded). The endpoint's row lock serializes replays to it,
 * and the unique index of pending deliveries per (endpoint, event) holds whatever runs beside.
 */
export async function replayWebhookDelivery(ctx: OperationContext, id: string): Promise<{ delivery: WebhookDelivery; created: boolean }> {
  const { scope } = ctx;
  return ctx.db.transaction(async (tx) => {
    const now = await modeNow(tx, ctx.clock, scope);
    const original = await queries.selectDelivery(tx, scope, id);
    if (!original) throw errors.missing('webhook delivery', id, 'id');
    const endpoint = await queries.lockEndpoint(tx, scope, original.endpoint_id);
    if (!endpoint) throw errors.missing('webhook delivery', id, 'id');
    if (endpoint.status !== 'enabled') throw errors.invalidState('webhook endpoint', endpoint.status, 'receive a replay; enable it first');
    const answerPending = async (pending: queries.DeliveryRow) => {
      if (await queries.updatePendingDueNow(tx, scope, pending.id, now, new Date(ctx.clock.nowMs()))) signalDeliveriesOnCommit(tx);
      return { delivery: serializeDelivery((await queries.selectDelivery(tx, scope, pending.id))!), created: false };
    };
    const pending = await queries.selectPendingOfEvent(tx, scope, endpoint.id, original.event_id);
    if (pending) return answerPending(pending);
    const bound = ctx.config.limits.webhookPendingDeliveries;
    if ((await queries.countPendingDeliveries(tx, scope, endpoint.id, bound)) >= bound) {
      throw pendingBoundError(ctx, 'replay it once the endpoint has worked through its pending deliveries');
    }
    const replayId = newId('webhookDelivery');
    const written = await queries.insertReplay(
      tx,
      scope,
      { id: replayId, endpointId: endpoint.id, eventId: original.event_id, eventType: original.event_type, replayOf: original.id, objectId: original.object_id },
      now,
    );
    if (!written) {
      // Another transaction's pending delivery of the event committed in between.
      const other = await queries.selectPendingOfEvent(tx, scope, endpoint.id, original.event_id);
      if (other) return answerPending(other);
    }
    signalDeliveriesOnCommit(tx);
    return { delivery: serializeDelivery((await queries.selectDelivery(tx, scope, replayId))!), created: true };
  });
}

/** Failed deliveries looked at per transaction by replay_failed. */
export const REPLAY_PAGE = 500;

/**
 * Replays the endpoint's failed deliveries (created since `since`, when given), oldest first, in
 * pages of REPLAY_PAGE: each page is one transaction (the endpoint locked and checked enabled, its
 * pending deliveries counted, one INSERT … SELECT), so many thousands never hold one long
 * transaction, and the dispatcher starts on the first page while the next is written. Only
 * deliveries made before the call are looked at. Each event is replayed at most once per call, and
 * not at all while it has a pending delivery to the endpoint, so calling again never doubles
 * anything. Past the endpoint's bound of pending deliveries the call stops with 409
 * limit_exceeded; what was written before stays (the message says how many).
 */
export async function replayFailedWebhookDeliveries(ctx: OperationContext, id: string, body: ReplayFailedDeliveriesBody): Promise<WebhookReplay> {
  const { scope } = ctx;
  const since = body?.since !== undefined ? timeInput(body.since) : null;
  const bound = ctx.config.limits.webhookPendingDeliveries;
  // Delivery ids are time-ordered: an id made now bounds the deliveries that existed before the call.
  const beforeId = newId('webhookDelivery');
  let afterId: string | null = null;
  let replayed = 0;
  for (;;) {
    const page = await ctx.db.transaction(async (tx) => {
      const now = await modeNow(tx, ctx.clock, scope);
      const endpoint = await queries.lockEndpoint(tx, scope, id);
      if (!endpoint) throw errors.missing('webhook endpoint', id, 'id');
      if (endpoint.status !== 'enabled') throw errors.invalidState('webhook endpoint', endpoint.status, 'receive a replay; enable it first');
      const room = Math.max(0, bound - (await queries.countPendingDeliveries(tx, scope, id, bound)));
      const newIds = Array.from({ length: REPLAY_PAGE }, () => newId('webhookDelivery'));
      const written = await queries.insertReplaysOfFailed(tx, scope, id, { since, afterId, beforeId, limit: REPLAY_PAGE, room }, newIds, now);
      if (written.replayed > 0) signalDeliveriesOnCommit(tx);
      return { ...written, bounded: written.wanted > room };
    });
    replayed += page.replayed;
    // The page wanted more than the bound left room for: what fitted is written (committed), the rest refused.
    if (page.bounded) {
      throw pendingBoundError(
        ctx,
        `${replayed} deliveries were replayed before it was reached; call again once the endpoint has worked through its pending deliveries (an event with a pending delivery is not replayed twice)`,
      );
    }
    if (page.scanned < REPLAY_PAGE || page.lastId === null) break;
    afterId = page.lastId;
  }
  return { object: 'webhook_replay', endpoint: id, since: since?.toISOString() ?? null, replayed };
}
