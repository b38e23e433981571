// Turning an endpoint off: by its owner (PATCH status=disabled) or by the service once every
// delivery has failed for 3 days (interface 3.6). Either way its pending deliveries fail with
// `endpoint_disabled`, so they can be replayed once it is fixed; the automatic one also sets
// `disabled_reason` and emails every member of the workspace through the outbox.
import type { Tx } from '../../db/db.js';
import type { Scope } from '../../scope.js';
import { memberAddresses } from '../accounts/index.js';
import { queueEmail } from '../emails/index.js';
import { workspaceOfMode } from '../marketplaces/index.js';
import * as queries from './queries.js';

export const AUTO_DISABLE_AFTER_MS = 3 * 24 * 60 * 60 * 1000;
export const ENDPOINT_DISABLED = 'endpoint_disabled';
export const AUTO_DISABLED_REASON = 'Every delivery to this endpoint failed for 3 days.';

/** Fails the endpoint's pending deliveries; the caller has set its status. */
export function failPendingOfDisabled(tx: Tx, scope: Scope, endpointId: string, now: Date): Promise<void> {
  return queries.failPendingDeliveries(tx, scope, endpointId, ENDPOINT_DISABLED, now);
}

/** The automatic disable, inside the transaction that recorded the failure that decided it. */
export async function autoDisableEndpoint(tx: Tx, scope: Scope, endpointId: string, now: Date): Promise<void> {
  const endpoint = await queries.lockEndpoint(tx, scope, endpointId);
  if (!endpoint || endpoint.status !== 'enabled') return;
  // A success recorded since the failure that decided it clears failing_since: then it stays on.
  if (endpoint.failing_since === null || endpoint.failing_since.getTime() > now.getTime() - AUTO_DISABLE_AFTER_MS) return;
  await queries.updateEndpoint(
    tx,
    scope,
    endpointId,
    {
      url: endpoint.url,
      description: endpoint.description,
      enabledEvents: endpoint.enabled_events,
      status: 'disabled',
      disabledReason: AUTO_DISABLED_REASON,
      failingSince: endpoint.failing_since,
      rateLimitPerSecond: endpoint.rate_limit_per_second,
      ordering: endpoint.ordering,
      metadata: endpoint.metadata,
    },
    now,
  );
  await failPendingOfDisabled(tx, scope, endpointId, now);
  const workspaceId = await workspaceOfMode(tx, scope);
  if (workspaceId === null) return;
  const to = await memberAddresses(tx, workspaceId);
  if (to.length === 0) return;
  await queueEmail(
    tx,
    workspaceId,
    to.slice(0, 100),
    `Webhook endpoint ${endpointId} was disabled`,
    [
      `The webhook endpoint ${endpointId} (${endpoint.url}) of marketplace ${scope.marketplaceId} (${scope.mode} mode)`,
      `was turned off: every delivery to it has failed since ${endpoint.failing_since?.toISOString() ?? 'three days ago'}.`,
      '',
      'Its pending deliveries were marked failed (endpoint_disabled). Once the endpoint answers again,',
      'turn it back on (PATCH /v1/webhook_endpoints/{id} with status=enabled) and replay what it missed',
      '(POST /v1/webhook_deliveries/{id}/replay), or catch up with GET /v1/events.',
    ].join('\n'),
    now,
  );
}
