-- Payouts (docs/payouts.md): sellers paid on a schedule from their available balance.
--
-- A seller's payout schedule (PUT /v1/sellers/{id}/payout_schedule): the override of the mode's
-- `payout_schedule` setting, the whole object as sent (with its defaults filled in).
CREATE TABLE seller_payout_schedules (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  seller_id text NOT NULL,
  schedule jsonb NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, seller_id)
);

-- One payout: a seller's available balance in one movement. The idempotency key is written with the
-- row, before the processor is called, so a run that crashed after the call makes no second transfer.
CREATE TABLE payouts (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  seller_id text NOT NULL,
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'in_transit', 'paid', 'failed', 'canceled')),
  automatic boolean NOT NULL,
  provider text NOT NULL,
  idempotency_key text NOT NULL,
  processor_reference text,
  failure_message text,
  period_start timestamptz(3) NOT NULL,
  period_end timestamptz(3) NOT NULL,
  created_at timestamptz(3) NOT NULL,
  paid_at timestamptz(3),
  failed_at timestamptz(3),
  canceled_at timestamptz(3),
  PRIMARY KEY (marketplace_id, mode, id)
);
CREATE INDEX payouts_seller_idx ON payouts (marketplace_id, mode, seller_id, id);
CREATE INDEX payouts_status_idx ON payouts (marketplace_id, mode, status, id);

-- The ledger lines a payout settles: the lines of the seller's available account it pays (their
-- sum is its amount). A line belongs to at most one payout that is not failed or canceled.
CREATE TABLE payout_lines (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  payout_id text NOT NULL,
  balance_transaction text NOT NULL,
  type text NOT NULL,
  ledger_type text NOT NULL,
  amount bigint NOT NULL,
  currency text NOT NULL,
  source_id text NOT NULL,
  payment_id text,
  order_id text,
  created_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, payout_id, balance_transaction)
);
CREATE INDEX payout_lines_line_idx ON payout_lines (marketplace_id, mode, balance_transaction);

-- Payout entries belong to no payment (their source is the po_…).
ALTER TABLE ledger_lines ALTER COLUMN payment_id DROP NOT NULL;

-- A scheduled seller's share goes to their balance instead of a transfer: release `in_balance`.
ALTER TABLE payments ADD COLUMN release_to_balance boolean NOT NULL DEFAULT false;
ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_release_status_check;
ALTER TABLE payments ADD CONSTRAINT payments_release_status_check
  CHECK (release_status IN ('held', 'releasing', 'released', 'failed', 'nothing_to_release', 'in_balance'));
