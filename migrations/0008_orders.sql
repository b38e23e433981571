-- Orders, their transition log, disputes, reviews and reputation events (interface.md 3.3, 3.9,
-- 4.7, 4.12; contract 9, 11, 12). Lock order: an order row first, then its listing (units); a new
-- order locks only its listing, by the one conditional UPDATE that reserves its units.

-- A listing may hold up to 1,000,000 units when made below the API (the API still takes 1 to
-- 100000 on create): the benchmark's hot listing.
ALTER TABLE listings DROP CONSTRAINT listings_quantity_check;
ALTER TABLE listings ADD CONSTRAINT listings_quantity_check CHECK (quantity BETWEEN 1 AND 1000000);

CREATE TABLE orders (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  buyer_id text NOT NULL,
  seller_id text NOT NULL,
  listing_id text NOT NULL,
  quantity integer NOT NULL CHECK (quantity BETWEEN 1 AND 100000),
  unit_amount bigint NOT NULL,
  subtotal bigint NOT NULL,
  fee_amount bigint NOT NULL,
  total bigint NOT NULL,
  currency text NOT NULL,
  state text NOT NULL CHECK (state IN ('awaiting_payment', 'committed', 'claimed', 'disputed', 'completed', 'cancelled', 'expired')),
  -- Where the order's units are: held by it, given back to the listing, or sold.
  units text NOT NULL CHECK (units IN ('reserved', 'returned', 'sold')),
  payment_id text,
  payment_method text NOT NULL,
  success_url text,
  cancel_url text,
  cancellation_proposed_by text CHECK (cancellation_proposed_by IN ('buyer', 'seller')),
  cancellation_reason text,
  cancellation_proposed_at timestamptz(3),
  dispute_id text,
  deadline timestamptz(3),
  metadata jsonb NOT NULL DEFAULT '{}',
  claimed_at timestamptz(3),
  completed_at timestamptz(3),
  cancelled_at timestamptz(3),
  expired_at timestamptz(3),
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, id),
  FOREIGN KEY (marketplace_id, mode, buyer_id) REFERENCES buyers (marketplace_id, mode, id),
  FOREIGN KEY (marketplace_id, mode, seller_id) REFERENCES sellers (marketplace_id, mode, id),
  FOREIGN KEY (marketplace_id, mode, listing_id) REFERENCES listings (marketplace_id, mode, id)
);
CREATE INDEX orders_buyer_idx ON orders (marketplace_id, mode, buyer_id, id);
CREATE INDEX orders_seller_idx ON orders (marketplace_id, mode, seller_id, id);
CREATE INDEX orders_listing_idx ON orders (marketplace_id, mode, listing_id, id);
CREATE INDEX orders_state_idx ON orders (marketplace_id, mode, state, id);

-- Every move of an order, creation first: GET /v1/orders/{id}/events.
CREATE TABLE order_transitions (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  order_id text NOT NULL,
  from_state text,
  to_state text NOT NULL,
  transition text NOT NULL,
  -- The acting buyer or seller id; null for the platform, a timer or the processor.
  actor text,
  reason text,
  created_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, id)
);
CREATE INDEX order_transitions_order_idx ON order_transitions (marketplace_id, mode, order_id, id);

CREATE TABLE disputes (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  order_id text NOT NULL,
  opened_by text NOT NULL,
  reason text NOT NULL CHECK (reason IN ('not_received', 'not_as_described', 'other')),
  description text NOT NULL,
  status text NOT NULL CHECK (status IN ('open', 'decided')),
  outcome text CHECK (outcome IN ('buyer', 'seller')),
  decision_note text,
  decision_due_at timestamptz(3) NOT NULL,
  -- [{actor, text, created_at}], oldest first.
  evidence jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz(3) NOT NULL,
  decided_at timestamptz(3),
  PRIMARY KEY (marketplace_id, mode, id),
  FOREIGN KEY (marketplace_id, mode, order_id) REFERENCES orders (marketplace_id, mode, id)
);
CREATE INDEX disputes_order_idx ON disputes (marketplace_id, mode, order_id, id);
CREATE INDEX disputes_status_idx ON disputes (marketplace_id, mode, status, id);

CREATE TABLE reviews (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  order_id text NOT NULL,
  author_role text NOT NULL CHECK (author_role IN ('buyer', 'seller')),
  author_id text NOT NULL,
  subject_id text NOT NULL,
  rating integer NOT NULL CHECK (rating BETWEEN 1 AND 5),
  body text,
  visible boolean NOT NULL DEFAULT false,
  removed boolean NOT NULL DEFAULT false,
  removed_reason text,
  created_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, id),
  FOREIGN KEY (marketplace_id, mode, order_id) REFERENCES orders (marketplace_id, mode, id)
);
CREATE UNIQUE INDEX reviews_order_author_key ON reviews (marketplace_id, mode, order_id, author_role);
CREATE INDEX reviews_subject_idx ON reviews (marketplace_id, mode, subject_id, id);
CREATE INDEX reviews_author_idx ON reviews (marketplace_id, mode, author_id);

CREATE TABLE reputation_events (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  subject_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('review', 'order_completed', 'dispute_lost')),
  order_id text NOT NULL,
  review_id text,
  rating integer,
  voided boolean NOT NULL DEFAULT false,
  created_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, id)
);
CREATE INDEX reputation_events_subject_idx ON reputation_events (marketplace_id, mode, subject_id, id);
CREATE UNIQUE INDEX reputation_events_review_key ON reputation_events (marketplace_id, mode, review_id) WHERE review_id IS NOT NULL;
