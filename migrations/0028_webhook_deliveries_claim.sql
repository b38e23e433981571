-- The per_object claim's question "is an older delivery of the same object still pending?" must be
-- answered by this index and no other, whatever the statistics say. With the predicate written
-- `status = 'pending'` the planner could also answer it from webhook_deliveries_endpoint_due_idx
-- (same leading column, same predicate) and, on a table too young to have statistics, took that
-- one: every check then read all of the endpoint's pending rows (1.25 s of a 1.28 s claim at 1,168
-- pending rows of one ordered endpoint). `next_attempt_at IS NOT NULL` means the same rows (the
-- webhook_deliveries_pending_due CHECK), and the claim writes its check that way, which only this
-- index's predicate matches.
DROP INDEX webhook_deliveries_object_pending_idx;
CREATE INDEX webhook_deliveries_object_pending_idx ON webhook_deliveries (endpoint_id, object_id, id)
  WHERE next_attempt_at IS NOT NULL AND object_id IS NOT NULL;

-- Room on each page for a claim's new row version, so that the claim (which changes only the
-- lease columns, held by no index) is a HOT update and writes no index entry. At fillfactor 80 a
-- page holds about eight rows of ~700 bytes and 1.6 KB free: bench/webhooks.ts measured 30–33 %
-- of the row updates HOT (the settle's never can be: it changes status), so a third of the claims
-- wrote seven index entries each; at 50, 49 % (nearly every claim), with the claim's WAL per
-- attempt at 350–1,040 bytes against 720–810. It applies to pages written from now on.
ALTER TABLE webhook_deliveries SET (fillfactor = 50);
