-- The id of the request that ran an idempotent POST: a replay names it in Original-Request.
-- Null for keys stored before this column (they expire within 24 hours).
ALTER TABLE idempotency_keys ADD COLUMN request_id text;

-- Login attempts counted per bucket (an email, a client address, or both together) in fixed
-- windows: each attempt is one upsert that returns the count, so parallel attempts cannot all
-- slip under the limit (docs/decisions.md, login throttling). Expired rows are reset in place by
-- the next attempt, or pruned by later logins.
CREATE TABLE login_attempts (
  bucket text PRIMARY KEY,
  attempts integer NOT NULL,
  expires_at timestamptz(3) NOT NULL
);
CREATE INDEX login_attempts_expires_idx ON login_attempts (expires_at);

DROP TABLE login_failures;
