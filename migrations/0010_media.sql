-- Listing media (interface.md 2.4, 3.2; contract 7). A row is the declaration of a file: pending
-- from the start of the upload until complete checked the stored file, then ready. The file itself
-- lives in the storage driver (local disk or S3) under storage_key, {marketplace}/{mode}/{listing}/{media}.
-- Lock order: listing, then its media (create locks the listing; remove deletes its media after).

CREATE TABLE media (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  listing_id text NOT NULL,
  -- The listing's seller (it never changes): seller erasure deletes the media of its listings.
  seller_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'ready')),
  content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif')),
  size_bytes integer NOT NULL CHECK (size_bytes BETWEEN 1 AND 10485760),
  position integer NOT NULL CHECK (position >= 0),
  storage_key text NOT NULL,
  -- The end of the upload grant, on the mode's clock.
  upload_expires_at timestamptz(3) NOT NULL,
  -- Local storage: when the single-use upload grant was taken (null: not yet, or given back by a failed upload).
  upload_received_at timestamptz(3),
  ready_at timestamptz(3),
  created_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, id),
  FOREIGN KEY (marketplace_id, mode, listing_id) REFERENCES listings (marketplace_id, mode, id),
  CHECK ((status = 'ready') = (ready_at IS NOT NULL))
);
CREATE INDEX media_listing_idx ON media (marketplace_id, mode, listing_id, id);
CREATE INDEX media_seller_idx ON media (marketplace_id, mode, seller_id);
