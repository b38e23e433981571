-- Recovery of what sellers owe (docs/ledger.md "What sellers owe", docs/decisions/ledger.md).
-- A write-off of a seller's debt, or a recovery made by something else than a payment's release,
-- names no payment: the ledger's payment column becomes optional (a DDL change: the append-only
-- trigger guards rows, not the table's shape). Migration 0035 (payouts) already made it optional for
-- a payout's entries; dropping a NOT NULL the column no longer has changes nothing, so this stays
-- correct whichever of the two runs on a database first.
ALTER TABLE ledger_lines ALTER COLUMN payment_id DROP NOT NULL;

-- A release's part kept to pay what its seller owed (the rest is transferred), and the policy in
-- force when the share was released for what the seller may owe on it after release: `platform_loss`
-- (the platform bears it at once, `shortfall`) or `recover` (the seller owes it, `seller_debt`).
-- Null: released before this column existed, read as platform_loss.
ALTER TABLE payments ADD COLUMN release_recovered bigint NOT NULL DEFAULT 0 CHECK (release_recovered >= 0);
ALTER TABLE payments ADD COLUMN seller_debt_policy text CHECK (seller_debt_policy IN ('platform_loss', 'recover'));
