-- What an order writes, narrowed (issue 27; docs/orders.md, "The hot tables' indexes"). Each new
-- order writes a transition and a timer; each of those rows had two unique indexes where one
-- serves every statement that reads or changes it.

-- order_transitions: every statement finds transitions by their order (GET /v1/orders/{id}/events,
-- erasure), none by id alone. The primary key becomes (marketplace_id, mode, order_id, id): still
-- unique (the id alone is), and the index those statements walk, in the order they read (by id).
ALTER TABLE order_transitions DROP CONSTRAINT order_transitions_pkey;
DROP INDEX order_transitions_order_idx;
ALTER TABLE order_transitions ADD PRIMARY KEY (marketplace_id, mode, order_id, id);

-- timers: one timer per (kind, subject) is the key every statement uses to set, move, cancel or
-- finish one (src/workers/timers.ts), so it becomes the primary key; the id stays a column,
-- unindexed. The due timers are still found by timers_due_idx.
ALTER TABLE timers DROP CONSTRAINT timers_pkey;
ALTER TABLE timers DROP CONSTRAINT timers_marketplace_id_mode_kind_subject_id_key;
ALTER TABLE timers ADD PRIMARY KEY (marketplace_id, mode, kind, subject_id);
