-- Webhook delivery controls per endpoint (docs/webhooks.md, docs/decisions/webhooks.md).
--
-- rate_limit_per_second: null is unlimited. The pacing lives here, not in a worker, so that any
-- number of worker processes keep to it together: next_send_at is the real time of the endpoint's
-- next free sending slot. The dispatcher's claim locks the rows of the rate-limited endpoints it
-- takes from (FOR UPDATE SKIP LOCKED), hands each claimed attempt a slot 1/rate s after the one
-- before, and moves next_send_at past the last one, in the same statement.
ALTER TABLE webhook_endpoints ADD COLUMN rate_limit_per_second integer
  CHECK (rate_limit_per_second BETWEEN 1 AND 1000);
ALTER TABLE webhook_endpoints ADD COLUMN next_send_at timestamptz(3);
-- ordering: 'per_object' delivers an object's events one at a time, in the order they were written.
ALTER TABLE webhook_endpoints ADD COLUMN ordering text NOT NULL DEFAULT 'none'
  CHECK (ordering IN ('none', 'per_object'));

-- The id of the event's data.object, kept for every delivery (so an endpoint may switch to
-- per_object at any time); null for the deliveries written before this migration.
ALTER TABLE webhook_deliveries ADD COLUMN object_id text;
-- The claim of a per_object endpoint: is an older delivery of the same object still pending?
-- Delivery ids are time-ordered (src/ids.ts) and an object's events are written under its row lock,
-- so id order within one object is the order its events were created.
CREATE INDEX webhook_deliveries_object_pending_idx ON webhook_deliveries (endpoint_id, object_id, id)
  WHERE status = 'pending' AND object_id IS NOT NULL;
