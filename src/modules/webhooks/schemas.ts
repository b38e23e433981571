// Webhook endpoint and delivery records, and the bodies and queries of their operations.
import { Type, type Static } from '@sinclair/typebox';
import { Body, ListOf, ListQuery, Metadata, Nullable, NullableTimestamp, StringEnum, TimeInput, Timestamp } from '../../http/schemas.js';

export const WebhookEndpointStatus = StringEnum(['enabled', 'disabled']);
export type WebhookEndpointStatus = Static<typeof WebhookEndpointStatus>;

export const WebhookEndpointOrdering = StringEnum(['none', 'per_object'], {
  description:
    '`per_object`: the events of one object (`data.object.id`) are delivered one at a time, in the order they were created; ' +
    'the next waits until the one before succeeded or finally failed (its retries spent). Other objects are not held. `none`: no order.',
});
export type WebhookEndpointOrdering = Static<typeof WebhookEndpointOrdering>;

const RateLimitPerSecond = Nullable(
  Type.Integer({
    minimum: 1,
    maximum: 1000,
    description:
      'At most this many attempts (first ones and retries) start per second, from every worker together: the backlog is paced, never dropped. ' +
      'An integer from 1 to 1000; null (the default) is unlimited.',
  }),
);

export const WebhookDeliveryStatus = StringEnum(['pending', 'succeeded', 'failed']);
export type WebhookDeliveryStatus = Static<typeof WebhookDeliveryStatus>;

const ENDPOINT_EXAMPLE = {
  object: 'webhook_endpoint',
  id: 'whe_01jd7v3k2m4n5p6q7r8s9t0v1w',
  url: 'https://hooks.example.com/marketplace',
  description: 'Order sync',
  enabled_events: ['order.created', 'order.completed'],
  status: 'enabled',
  disabled_reason: null,
  failing_since: null,
  last_success_at: '2026-11-21T09:30:00.000Z',
  rate_limit_per_second: null,
  ordering: 'none',
  metadata: {},
  created_at: '2026-11-21T09:00:00.000Z',
};

export const WebhookEndpoint = Type.Object(
  {
    object: Type.Literal('webhook_endpoint'),
    id: Type.String(),
    url: Type.String(),
    description: Nullable(Type.String()),
    enabled_events: Type.Array(Type.String()),
    status: WebhookEndpointStatus,
    disabled_reason: Nullable(Type.String()),
    failing_since: NullableTimestamp,
    last_success_at: NullableTimestamp,
    secret: Type.Optional(Type.String({ description: 'The signing secret: only in the answers of create and rotate_secret.' })),
    rate_limit_per_second: RateLimitPerSecond,
    ordering: WebhookEndpointOrdering,
    metadata: Metadata,
    created_at: Timestamp,
  },
  { examples: [ENDPOINT_EXAMPLE] },
);
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

export const WebhookEndpointList = ListOf(WebhookEndpoint);

export const DeletedWebhookEndpoint = Type.Object(
  {
    object: Type.Literal('webhook_endpoint'),
    id: Type.String(),
    deleted: Type.Literal(true),
  },
  { examples: [{ object: 'webhook_endpoint', id: ENDPOINT_EXAMPLE.id, deleted: true }] },
);
export type DeletedWebhookEndpoint = Static<typeof DeletedWebhookEndpoint>;

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'An https:// URL on the public internet. Test mode on the embedded database (no DATABASE_URL) also accepts loopback URLs (http://127.0.0.1:…, http://localhost:…); WEBHOOK_ALLOW_PRIVATE_URLS=1 accepts http:// and private addresses in both modes. A refusal answers 400 invalid_request naming url.',
  examples: [ENDPOINT_EXAMPLE.url],
});
const EnabledEvents = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: 100,
  description: 'Event types, or `*` for every type, including types added later.',
  examples: [['order.created'], ['*']],
});
const Description = Nullable(Type.String({ maxLength: 200 }));

export const CreateWebhookEndpointBody = Type.Object(
  {
    url: Url,
    enabled_events: EnabledEvents,
    description: Type.Optional(Description),
    rate_limit_per_second: Type.Optional(RateLimitPerSecond),
    ordering: Type.Optional(WebhookEndpointOrdering),
    metadata: Type.Optional(Metadata),
  },
  {
    additionalProperties: false,
    examples: [{ url: ENDPOINT_EXAMPLE.url, enabled_events: ['order.created', 'order.completed'], description: 'Order sync' }],
  },
);
export type CreateWebhookEndpointBody = Static<typeof CreateWebhookEndpointBody>;

export const UpdateWebhookEndpointBody = Type.Object(
  {
    url: Type.Optional(Url),
    enabled_events: Type.Optional(EnabledEvents),
    description: Type.Optional(Description),
    status: Type.Optional(WebhookEndpointStatus),
    rate_limit_per_second: Type.Optional(RateLimitPerSecond),
    ordering: Type.Optional(WebhookEndpointOrdering),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false, examples: [{ status: 'enabled' }, { enabled_events: ['*'] }, { rate_limit_per_second: 20, ordering: 'per_object' }] },
);
export type UpdateWebhookEndpointBody = Static<typeof UpdateWebhookEndpointBody>;

export const ListWebhookEndpointsQuery = ListQuery({});
export type ListWebhookEndpointsQuery = Static<typeof ListWebhookEndpointsQuery>;

export const AttemptLogEntry = Type.Object({
  at: Timestamp,
  status: Nullable(Type.Integer({ description: 'The HTTP status answered; null when there was no answer.' })),
  duration_ms: Type.Integer(),
  error: Nullable(Type.String()),
});
export type AttemptLogEntry = Static<typeof AttemptLogEntry>;

export const WebhookDelivery = Type.Object(
  {
    object: Type.Literal('webhook_delivery'),
    id: Type.String(),
    endpoint: Type.String(),
    event: Type.String(),
    event_type: Type.String(),
    replay_of: Nullable(Type.String()),
    status: WebhookDeliveryStatus,
    attempts: Type.Integer(),
    attempt_log: Type.Array(AttemptLogEntry),
    next_attempt_at: NullableTimestamp,
    request: Type.Object({ headers: Type.Record(Type.String(), Type.String()), body: Type.String() }),
    response: Type.Object({ status: Nullable(Type.Integer()), body: Nullable(Type.String()) }),
    error: Nullable(Type.String()),
    created_at: Timestamp,
    completed_at: NullableTimestamp,
  },
  {
    examples: [
      {
        object: 'webhook_delivery',
        id: 'whd_01jd7v3k2m4n5p6q7r8s9t0v1w',
        endpoint: ENDPOINT_EXAMPLE.id,
        event: 'evt_01jd7v3k2m4n5p6q7r8s9t0v1w',
        event_type: 'order.created',
        replay_of: null,
        status: 'succeeded',
        attempts: 1,
        attempt_log: [{ at: '2026-11-21T09:30:00.000Z', status: 200, duration_ms: 84, error: null }],
        next_attempt_at: null,
        request: { headers: { 'Content-Type': 'application/json' }, body: '{"id":"evt_01jd7v3k2m4n5p6q7r8s9t0v1w","object":"event"}' },
        response: { status: 200, body: 'ok' },
        error: null,
        created_at: '2026-11-21T09:30:00.000Z',
        completed_at: '2026-11-21T09:30:00.084Z',
      },
    ],
  },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const WebhookDeliveryList = ListOf(WebhookDelivery);

export const ListWebhookDeliveriesQuery = ListQuery({
  endpoint: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only deliveries to this endpoint.' })),
  status: Type.Optional(WebhookDeliveryStatus),
});
export type ListWebhookDeliveriesQuery = Static<typeof ListWebhookDeliveriesQuery>;

export const ReplayFailedDeliveriesBody = Type.Union(
  [
    Body({
      since: Type.Optional(TimeInput('Only the failed deliveries created at or after this time (on the mode clock). Left out: every failed delivery kept.')),
    }),
    Type.Null(),
  ],
  { description: 'Optional: send no body to replay every failed delivery.', examples: [{}, { since: '2026-11-21T00:00:00.000Z' }] },
);
export type ReplayFailedDeliveriesBody = Static<typeof ReplayFailedDeliveriesBody>;

export const WebhookReplay = Type.Object(
  {
    object: Type.Literal('webhook_replay'),
    endpoint: Type.String({ description: 'The endpoint replayed to.' }),
    since: NullableTimestamp,
    replayed: Type.Integer({ minimum: 0, description: 'How many failed deliveries got a new pending delivery (`replay_of` naming each).' }),
  },
  { examples: [{ object: 'webhook_replay', endpoint: ENDPOINT_EXAMPLE.id, since: null, replayed: 42 }] },
);
export type WebhookReplay = Static<typeof WebhookReplay>;
