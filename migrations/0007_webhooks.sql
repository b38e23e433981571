-- Webhook endpoints and their deliveries (docs/webhooks.md).
-- A delivery row is itself the unit of the dispatcher's work (src/modules/webhooks/dispatcher.ts):
-- claimed in batches with FOR UPDATE SKIP LOCKED under a lease (locked_by, locked_until; real
-- time), attempted with no transaction open, and settled in batched statements fenced by the lease.
-- next_attempt_at, created_at and completed_at are on the mode's clock (the test clock in test mode).

CREATE TABLE webhook_endpoints (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  url text NOT NULL,
  description text,
  enabled_events text[] NOT NULL,
  status text NOT NULL CHECK (status IN ('enabled', 'disabled')),
  disabled_reason text,
  failing_since timestamptz(3),
  last_success_at timestamptz(3),
  -- The signing secret, encrypted with SECRET_KEY (src/secrets.ts), bound to the endpoint's id.
  secret_enc text NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, id),
  FOREIGN KEY (marketplace_id, mode) REFERENCES marketplace_modes (marketplace_id, mode)
);
-- Fan-out: the enabled endpoints of a mode, read in every transaction that emits an event.
CREATE INDEX webhook_endpoints_enabled_idx ON webhook_endpoints (marketplace_id, mode) WHERE status = 'enabled';

CREATE TABLE webhook_deliveries (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  endpoint_id text NOT NULL,
  event_id text NOT NULL,
  event_type text NOT NULL,
  replay_of text,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  attempt_log jsonb NOT NULL DEFAULT '[]',
  next_attempt_at timestamptz(3),
  request_headers jsonb NOT NULL DEFAULT '{}',
  -- The exact body sent: the event envelope as it was at the event (rewritten by erasure).
  request_body text NOT NULL,
  response_status integer,
  response_body text,
  error text,
  locked_by text,
  locked_until timestamptz(3),
  created_at timestamptz(3) NOT NULL,
  completed_at timestamptz(3),
  PRIMARY KEY (marketplace_id, mode, id),
  CONSTRAINT webhook_deliveries_pending_due CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL))
) WITH (fillfactor = 80);
-- fillfactor: a claim changes only the lease columns, which no index holds, so it can be a HOT
-- update on the same page (no index entries, less bloat) when the page has room.
-- The dispatcher's claim: the endpoints with pending rows (a loose index scan), then each one's
-- due rows in order. An endpoint at its cap is never read, so its backlog costs the claim nothing.
CREATE INDEX webhook_deliveries_endpoint_due_idx ON webhook_deliveries (endpoint_id, next_attempt_at)
  WHERE status = 'pending';
-- GET /v1/webhook_deliveries?endpoint=…(&status=…): newest first within one endpoint.
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (marketplace_id, mode, endpoint_id, id);
-- GET /v1/webhook_deliveries?status=…: newest first within one status.
CREATE INDEX webhook_deliveries_status_idx ON webhook_deliveries (marketplace_id, mode, status, id);
-- Erasure finds the deliveries of an erased object's events.
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (marketplace_id, mode, event_id);
-- Retention: the oldest rows first, in small batches.
CREATE INDEX webhook_deliveries_created_idx ON webhook_deliveries (created_at);
