-- Parties: sellers and buyers (contract 5). Personal data (external_id, name, email, metadata)
-- is nulled on erasure; the row stays, with erased_at, so orders and reputation keep their links.

CREATE TABLE sellers (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  external_id text,
  name text,
  email text,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
  suspended_reason text,
  verification_status text NOT NULL DEFAULT 'unverified'
    CHECK (verification_status IN ('unverified', 'pending', 'verified', 'rejected')),
  verification_updated_at timestamptz(3),
  payouts_status text NOT NULL DEFAULT 'not_started'
    CHECK (payouts_status IN ('not_started', 'pending', 'enabled', 'restricted')),
  processor_account text,
  metadata jsonb NOT NULL DEFAULT '{}',
  erased_at timestamptz(3),
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, id)
);
CREATE UNIQUE INDEX sellers_external_id_key ON sellers (marketplace_id, mode, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX sellers_status_idx ON sellers (marketplace_id, mode, status, id);

CREATE TABLE buyers (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  external_id text,
  name text,
  email text,
  metadata jsonb NOT NULL DEFAULT '{}',
  erased_at timestamptz(3),
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, id)
);
CREATE UNIQUE INDEX buyers_external_id_key ON buyers (marketplace_id, mode, external_id) WHERE external_id IS NOT NULL;

-- A seller's storefront: at most one per seller, replaced whole by PUT. The slug is public and
-- unique per marketplace and mode.
CREATE TABLE storefronts (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  seller_id text NOT NULL,
  name text NOT NULL,
  slug text,
  description text,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, id),
  FOREIGN KEY (marketplace_id, mode, seller_id) REFERENCES sellers (marketplace_id, mode, id)
);
CREATE UNIQUE INDEX storefronts_seller_key ON storefronts (marketplace_id, mode, seller_id);
CREATE UNIQUE INDEX storefronts_slug_key ON storefronts (marketplace_id, mode, slug) WHERE slug IS NOT NULL;

-- Seller verifications: pending until approved (verified) or rejected. At most one pending per
-- seller, enforced by the index so two concurrent requests cannot both start one.
CREATE TABLE verifications (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  seller_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'verified', 'rejected')),
  reason text,
  notes text,
  metadata jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz(3) NOT NULL,
  decided_at timestamptz(3),
  PRIMARY KEY (marketplace_id, mode, id),
  FOREIGN KEY (marketplace_id, mode, seller_id) REFERENCES sellers (marketplace_id, mode, id)
);
CREATE UNIQUE INDEX verifications_pending_key ON verifications (marketplace_id, mode, seller_id) WHERE status = 'pending';
CREATE INDEX verifications_seller_idx ON verifications (marketplace_id, mode, seller_id, id);
CREATE INDEX verifications_status_idx ON verifications (marketplace_id, mode, status, id);

-- Processor onboarding links handed to sellers. The simulated processor's page is reached by the
-- link alone (no API key), hence the global index on id; ids carry 80 random bits.
CREATE TABLE onboarding_links (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  seller_id text NOT NULL,
  return_url text NOT NULL,
  refresh_url text NOT NULL,
  expires_at timestamptz(3) NOT NULL,
  used_at timestamptz(3),
  created_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, id),
  FOREIGN KEY (marketplace_id, mode, seller_id) REFERENCES sellers (marketplace_id, mode, id)
);
CREATE UNIQUE INDEX onboarding_links_id_key ON onboarding_links (id);
CREATE INDEX onboarding_links_seller_idx ON onboarding_links (marketplace_id, mode, seller_id);

-- What moderators (or the platform through the API) did, and why (contract 12). flag_id is set when
-- the action resolved a flag; the flags table arrives with trust and safety.
CREATE TABLE moderation_actions (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  action text NOT NULL CHECK (action IN ('remove_listing', 'remove_review', 'suspend_seller', 'unsuspend_seller')),
  target_type text NOT NULL,
  target_id text NOT NULL,
  reason text,
  flag_id text,
  created_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, id)
);
CREATE INDEX moderation_actions_target_idx ON moderation_actions (marketplace_id, mode, target_id, id);
