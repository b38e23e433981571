-- Foundation: tenancy (workspaces, users, marketplaces and their two modes), API keys,
-- idempotency records, events, timers and the email outbox.
-- Tables of a marketplace's data carry (marketplace_id, mode) first in their key, so the schema
-- can be sharded by marketplace. Workspace-level tables (workspaces, users, members, tokens,
-- emails) sit above marketplaces and carry the workspace instead.

CREATE TABLE workspaces (
  id text PRIMARY KEY,
  name text NOT NULL,
  billing_state text NOT NULL DEFAULT 'active' CHECK (billing_state IN ('active', 'payment_missed', 'suspended')),
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL
);

CREATE TABLE users (
  id text PRIMARY KEY,
  email text NOT NULL,
  password_hash text NOT NULL,
  created_at timestamptz(3) NOT NULL
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE workspace_members (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  user_id text NOT NULL REFERENCES users (id),
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'developer', 'viewer')),
  created_at timestamptz(3) NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX workspace_members_user_idx ON workspace_members (user_id);

CREATE TABLE management_tokens (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz(3) NOT NULL,
  expires_at timestamptz(3) NOT NULL
);

CREATE TABLE marketplaces (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  name text NOT NULL,
  currency text NOT NULL,
  created_at timestamptz(3) NOT NULL
);
CREATE INDEX marketplaces_workspace_idx ON marketplaces (workspace_id, id);

-- One row per marketplace and mode: its settings and its test clock offset (always 0 in live).
CREATE TABLE marketplace_modes (
  marketplace_id text NOT NULL REFERENCES marketplaces (id),
  mode text NOT NULL CHECK (mode IN ('test', 'live')),
  settings jsonb NOT NULL,
  clock_offset_ms bigint NOT NULL DEFAULT 0,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode),
  CHECK (mode = 'test' OR clock_offset_ms = 0)
);

CREATE TABLE api_keys (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  type text NOT NULL CHECK (type IN ('secret', 'publishable')),
  name text,
  key_hash text NOT NULL,
  -- Publishable keys are public by design and can be shown again; secret keys never are.
  publishable_key text,
  last4 text NOT NULL,
  created_at timestamptz(3) NOT NULL,
  expires_at timestamptz(3),
  revoked_at timestamptz(3),
  PRIMARY KEY (marketplace_id, mode, id),
  FOREIGN KEY (marketplace_id, mode) REFERENCES marketplace_modes (marketplace_id, mode)
);
CREATE UNIQUE INDEX api_keys_hash_key ON api_keys (key_hash);
CREATE UNIQUE INDEX api_keys_id_key ON api_keys (id);

CREATE TABLE processor_connections (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  provider text NOT NULL CHECK (provider IN ('simulated', 'stripe')),
  secret_key_enc text,
  webhook_secret_enc text,
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode),
  FOREIGN KEY (marketplace_id, mode) REFERENCES marketplace_modes (marketplace_id, mode)
);

CREATE TABLE idempotency_keys (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  -- While a request runs, locked_until is set and response_status is null.
  locked_until timestamptz(3),
  response_status integer,
  response_body text,
  created_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);

CREATE TABLE events (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  type text NOT NULL,
  -- The id of data.object, so erasure and per-object reads find an object's events.
  object_id text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, id)
);
CREATE INDEX events_type_idx ON events (marketplace_id, mode, type, id);
CREATE INDEX events_object_idx ON events (marketplace_id, mode, object_id);

-- Work due at a time of the mode's clock (test clock in test mode). Claimed with
-- FOR UPDATE SKIP LOCKED; one row per (kind, subject) so a timer can be moved or dropped.
CREATE TABLE timers (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  kind text NOT NULL,
  subject_id text NOT NULL,
  run_at timestamptz(3) NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}',
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, id),
  UNIQUE (marketplace_id, mode, kind, subject_id)
);
CREATE INDEX timers_run_at_idx ON timers (run_at);

CREATE TABLE emails (
  id text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  to_addresses jsonb NOT NULL,
  subject text NOT NULL,
  body_text text NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz(3) NOT NULL,
  sent_at timestamptz(3)
);
CREATE INDEX emails_workspace_idx ON emails (workspace_id, id);
CREATE INDEX emails_queued_idx ON emails (status) WHERE status = 'queued';
