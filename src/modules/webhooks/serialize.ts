// Rows → API objects.
import { bodyOf, type DeliveryRow, type EndpointRow } from './queries.js';
import type { WebhookDelivery, WebhookEndpoint } from './schemas.js';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function serializeEndpoint(row: EndpointRow, secret?: string): WebhookEndpoint {
  return {
    object: 'webhook_endpoint',
    id: row.id,
    url: row.url,
    description: row.description,
    enabled_events: row.enabled_events,
    status: row.status,
    disabled_reason: row.disabled_reason,
    failing_since: iso(row.failing_since),
    last_success_at: iso(row.last_success_at),
    ...(secret !== undefined ? { secret } : {}),
    rate_limit_per_second: row.rate_limit_per_second,
    ordering: row.ordering,
    metadata: row.metadata,
    created_at: row.created_at.toISOString(),
  };
}

export function serializeDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    object: 'webhook_delivery',
    id: row.id,
    endpoint: row.endpoint_id,
    event: row.event_id,
    event_type: row.event_type,
    replay_of: row.replay_of,
    status: row.status,
    attempts: row.attempts,
    attempt_log: row.attempt_log,
    next_attempt_at: iso(row.next_attempt_at),
    request: { headers: row.request_headers, body: bodyOf(row) },
    response: { status: row.response_status, body: row.response_body },
    error: row.error,
    created_at: row.created_at.toISOString(),
    completed_at: iso(row.completed_at),
  };
}
