-- Bounded replay and the event body stored once (docs/webhooks.md, docs/decisions/webhooks.md).
--
-- A delivery refers to its event (event_id) instead of carrying a copy of its body: the body an
-- attempt sends, and the one GET /v1/webhook_deliveries shows, is the event's envelope rendered
-- from the events row (src/outbox/envelope.ts). Events are never deleted, and a delivery is written
-- in its event's transaction or after it (a replay), so the event is always there. Erasure rewrites
-- the event, and with it every body any delivery of it can still send.
ALTER TABLE webhook_deliveries DROP COLUMN request_body;

-- At most one pending delivery per (endpoint, event): a replay while one is pending answers that
-- one, and two replays at the same moment cannot both write (the second's INSERT … ON CONFLICT DO
-- NOTHING finds the first). A delivery waiting for its next retry is pending too, so the retry
-- schedule and per_object ordering see one row per event, never two. Pending duplicates made
-- before this migration (replays of replays) are failed first, keeping the oldest.
UPDATE webhook_deliveries d
   SET status = 'failed', error = 'duplicate_pending', next_attempt_at = NULL, completed_at = now(), locked_by = NULL, locked_until = NULL
 WHERE d.status = 'pending'
   AND EXISTS (SELECT 1 FROM webhook_deliveries o
                WHERE o.marketplace_id = d.marketplace_id AND o.mode = d.mode AND o.endpoint_id = d.endpoint_id
                  AND o.event_id = d.event_id AND o.status = 'pending' AND o.id < d.id);
CREATE UNIQUE INDEX webhook_deliveries_pending_event_key ON webhook_deliveries (marketplace_id, mode, endpoint_id, event_id)
  WHERE status = 'pending';

-- Pending deliveries per endpoint are bounded (MAX_PENDING_WEBHOOK_DELIVERIES). A replay counts
-- them exactly, under the endpoint's lock. The fan-out written with every event cannot afford a
-- count, so it reads this flag, kept by the worker's periodic check (webhook_pending_bound): the
-- deliveries of a new event to an endpoint at its bound are written failed with
-- `pending_limit_exceeded` (replayable once the backlog drains) instead of pending.
ALTER TABLE webhook_endpoints ADD COLUMN pending_full boolean NOT NULL DEFAULT false;
-- GET /metrics counts the deliveries written failed at the bound, per mode.
CREATE INDEX webhook_deliveries_over_bound_idx ON webhook_deliveries (mode) WHERE error = 'pending_limit_exceeded';
