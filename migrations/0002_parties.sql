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
