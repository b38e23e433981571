-- Catalog: categories and listings (interface.md 2.2, 2.3; contract 6).
-- Lock order of every operation that locks more than one of these rows: seller, then listing,
-- then category. Erasure (seller, then its listings) follows it; replacing an attribute schema
-- locks only the category and reads its listings without locks, so it cannot deadlock with them.

CREATE TABLE categories (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  key text NOT NULL,
  name text NOT NULL,
  description text,
  parent_id text,
  -- {attributes: [attribute definition]}, validated by src/modules/categories/attributes.ts.
  attribute_schema jsonb NOT NULL DEFAULT '{"attributes": []}',
  -- null, or {percent_bps: integer or null, fixed_amount: integer or null}; a null member counts as 0.
  fee jsonb,
  prohibited boolean NOT NULL DEFAULT false,
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, id),
  FOREIGN KEY (marketplace_id, mode) REFERENCES marketplace_modes (marketplace_id, mode),
  FOREIGN KEY (marketplace_id, mode, parent_id) REFERENCES categories (marketplace_id, mode, id),
  CHECK (parent_id IS NULL OR parent_id <> id)
);
CREATE UNIQUE INDEX categories_key_key ON categories (marketplace_id, mode, key);
CREATE INDEX categories_parent_idx ON categories (marketplace_id, mode, parent_id) WHERE parent_id IS NOT NULL;

CREATE TABLE listings (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  seller_id text NOT NULL,
  category_id text,
  title text NOT NULL,
  description text,
  price_amount bigint NOT NULL CHECK (price_amount BETWEEN 0 AND 99999999999),
  currency text NOT NULL,
  quantity integer NOT NULL CHECK (quantity BETWEEN 1 AND 100000),
  -- Units held by open orders and units sold; quantity_available = quantity - reserved - sold.
  quantity_reserved integer NOT NULL DEFAULT 0 CHECK (quantity_reserved >= 0),
  quantity_sold integer NOT NULL DEFAULT 0 CHECK (quantity_sold >= 0),
  status text NOT NULL CHECK (status IN ('draft', 'published', 'sold', 'expired', 'removed')),
  attributes jsonb NOT NULL DEFAULT '{}',
  metadata jsonb NOT NULL DEFAULT '{}',
  published_at timestamptz(3),
  expires_at timestamptz(3),
  removed_reason text,
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, id),
  FOREIGN KEY (marketplace_id, mode, seller_id) REFERENCES sellers (marketplace_id, mode, id),
  FOREIGN KEY (marketplace_id, mode, category_id) REFERENCES categories (marketplace_id, mode, id),
  CHECK (quantity_reserved + quantity_sold <= quantity),
  CHECK ((status = 'removed') = (removed_reason IS NOT NULL))
);
CREATE INDEX listings_seller_idx ON listings (marketplace_id, mode, seller_id, id);
CREATE INDEX listings_category_idx ON listings (marketplace_id, mode, category_id, id) WHERE category_id IS NOT NULL;
CREATE INDEX listings_status_idx ON listings (marketplace_id, mode, status, id);
