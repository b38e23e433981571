-- Checkouts (docs/decisions/checkouts.md): several orders of one buyer made in one transaction and
-- paid by one payment. Each order stays an order of contract 9 (one listing, one buyer, one
-- seller); the checkout only groups them: its amounts are the sums of its orders', fixed at
-- creation, and its status follows its orders (the checkouts module's event subscriber).
CREATE TABLE checkouts (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  buyer_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('awaiting_payment', 'completed', 'expired', 'cancelled')),
  currency text NOT NULL,
  subtotal bigint NOT NULL,
  fee_amount bigint NOT NULL,
  total bigint NOT NULL,
  -- Its orders, one per item, in item order.
  order_ids text[] NOT NULL,
  -- The charge (one payment for the total); null with payments off.
  payment_id text,
  success_url text,
  cancel_url text,
  -- The shared payment window of its orders; null with payments off.
  expires_at timestamptz(3),
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, id),
  FOREIGN KEY (marketplace_id, mode, buyer_id) REFERENCES buyers (marketplace_id, mode, id)
);
-- GET /v1/checkouts?buyer=…&status=…, newest first.
CREATE INDEX checkouts_buyer_status_idx ON checkouts (marketplace_id, mode, buyer_id, status, id);
CREATE INDEX checkouts_status_idx ON checkouts (marketplace_id, mode, status, id);

-- The checkout an order was made in; null for an order made alone. The checkout's row is written
-- before its orders (in the same transaction).
ALTER TABLE orders ADD COLUMN checkout_id text;
ALTER TABLE orders ADD CONSTRAINT orders_checkout_fkey
  FOREIGN KEY (marketplace_id, mode, checkout_id) REFERENCES checkouts (marketplace_id, mode, id);
CREATE INDEX orders_checkout_idx ON orders (marketplace_id, mode, checkout_id, id) WHERE checkout_id IS NOT NULL;
