-- Payments, refunds, card disputes and processor event receipts (docs/payments.md; interface.md
-- 2.8, 2.9, 3.4, 3.5; contract 10). Money columns are bigint minor units. Lock order: the order,
-- then its payment, then the payment's refunds.

CREATE TABLE payments (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  order_id text NOT NULL,
  seller_id text NOT NULL,
  -- The processor the payment was made through: reports and calls go to it even if the mode's
  -- connection changes later.
  provider text NOT NULL CHECK (provider IN ('simulated', 'stripe')),
  method text NOT NULL CHECK (method IN ('checkout_session', 'payment_intent')),
  status text NOT NULL CHECK (status IN ('awaiting_payment', 'succeeded', 'canceled')),
  amount bigint NOT NULL CHECK (amount >= 0),
  fee_amount bigint NOT NULL CHECK (fee_amount >= 0),
  -- The seller's share before refunds (the order's subtotal).
  subtotal bigint NOT NULL CHECK (subtotal >= 0 AND subtotal <= amount),
  currency text NOT NULL,
  checkout_url text,
  client_secret text,
  -- Where the simulated checkout page sends the buyer (the order's URLs, else the mode's settings).
  success_url text,
  cancel_url text,
  last_failure text,
  -- Refunds pending or succeeded.
  amount_refunded bigint NOT NULL DEFAULT 0 CHECK (amount_refunded >= 0 AND amount_refunded <= amount),
  release_status text CHECK (release_status IN ('held', 'releasing', 'released', 'failed', 'nothing_to_release')),
  -- Planned while held or failed (lowered by refunds); fixed once releasing.
  release_amount bigint NOT NULL DEFAULT 0 CHECK (release_amount >= 0),
  -- Reversals pending or made, for refunds after release.
  amount_reversed bigint NOT NULL DEFAULT 0 CHECK (amount_reversed >= 0),
  -- The seller's part of refunds made in the processor's dashboard after release: never reversed.
  reversal_waived bigint NOT NULL DEFAULT 0 CHECK (reversal_waived >= 0),
  release_failure text,
  -- Each start or retry of the release is a new transfer, under its own idempotency key.
  release_attempts integer NOT NULL DEFAULT 0,
  release_due_at timestamptz(3),
  released_at timestamptz(3),
  processor_payment_intent text,
  processor_checkout_session text,
  processor_charge text,
  processor_transfer text,
  metadata jsonb NOT NULL DEFAULT '{}',
  paid_at timestamptz(3),
  canceled_at timestamptz(3),
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, id),
  FOREIGN KEY (marketplace_id, mode, order_id) REFERENCES orders (marketplace_id, mode, id),
  CHECK (amount_reversed <= release_amount)
);
CREATE UNIQUE INDEX payments_order_key ON payments (marketplace_id, mode, order_id);
CREATE INDEX payments_status_idx ON payments (marketplace_id, mode, status, id);
CREATE INDEX payments_seller_release_idx ON payments (marketplace_id, mode, seller_id) WHERE release_status = 'failed';
CREATE INDEX payments_intent_idx ON payments (marketplace_id, mode, processor_payment_intent) WHERE processor_payment_intent IS NOT NULL;
CREATE INDEX payments_session_idx ON payments (marketplace_id, mode, processor_checkout_session) WHERE processor_checkout_session IS NOT NULL;
CREATE INDEX payments_charge_idx ON payments (marketplace_id, mode, processor_charge) WHERE processor_charge IS NOT NULL;
CREATE INDEX payments_transfer_idx ON payments (marketplace_id, mode, processor_transfer) WHERE processor_transfer IS NOT NULL;

CREATE TABLE refunds (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  payment_id text NOT NULL,
  order_id text NOT NULL,
  amount bigint NOT NULL CHECK (amount >= 1),
  currency text NOT NULL,
  reason text CHECK (reason IN ('requested_by_customer', 'duplicate', 'fraudulent')),
  initiated_by text NOT NULL CHECK (initiated_by IN ('api', 'order_cancelled', 'order_expired', 'late_payment', 'processor')),
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'canceled')),
  failure_reason text,
  transfer_reversal_amount bigint CHECK (transfer_reversal_amount >= 0),
  -- The processor refused the reversal (the seller's balance was short): the buyer is refunded all
  -- the same, and this shortfall stays on the refund for the platform to see.
  transfer_reversal_failure text,
  processor_refund text,
  processor_transfer_reversal text,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, id),
  FOREIGN KEY (marketplace_id, mode, payment_id) REFERENCES payments (marketplace_id, mode, id)
);
CREATE INDEX refunds_payment_idx ON refunds (marketplace_id, mode, payment_id, id);
CREATE INDEX refunds_order_idx ON refunds (marketplace_id, mode, order_id, id);
CREATE UNIQUE INDEX refunds_processor_key ON refunds (marketplace_id, mode, processor_refund) WHERE processor_refund IS NOT NULL;

CREATE TABLE card_disputes (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  payment_id text NOT NULL,
  order_id text NOT NULL,
  amount bigint NOT NULL CHECK (amount >= 0),
  reason text NOT NULL,
  status text NOT NULL,
  evidence_due_by timestamptz(3),
  processor_dispute text NOT NULL,
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, id),
  FOREIGN KEY (marketplace_id, mode, payment_id) REFERENCES payments (marketplace_id, mode, id)
);
CREATE UNIQUE INDEX card_disputes_processor_key ON card_disputes (marketplace_id, mode, processor_dispute);
CREATE INDEX card_disputes_payment_idx ON card_disputes (marketplace_id, mode, payment_id, id);

-- Stripe signs the events of connected accounts (account.updated) through a Connect endpoint,
-- which has its own signing secret.
ALTER TABLE processor_connections ADD COLUMN connect_webhook_secret_enc text;

-- Processor events already handled (Stripe retries deliveries and may send one event twice).
CREATE TABLE processor_event_receipts (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  provider text NOT NULL,
  event_id text NOT NULL,
  received_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, provider, event_id)
);
