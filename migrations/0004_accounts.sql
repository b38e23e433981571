-- Accounts: invited members, failed-login throttling, email retries.
-- An invited user has no password until they accept the invitation (contract 2, docs/decisions.md).
ALTER TABLE users ALTER COLUMN password_hash DROP NOT NULL;

-- One invitation per (workspace, user) at a time; the token is stored hashed, like API keys.
CREATE TABLE invitations (
  token_hash text PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces (id),
  user_id text NOT NULL REFERENCES users (id),
  created_at timestamptz(3) NOT NULL,
  expires_at timestamptz(3) NOT NULL,
  accepted_at timestamptz(3)
);
CREATE INDEX invitations_user_idx ON invitations (user_id, workspace_id);

-- Failed logins per (lower-cased) email inside the throttling window; older rows are pruned.
CREATE TABLE login_failures (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email text NOT NULL,
  created_at timestamptz(3) NOT NULL
);
CREATE INDEX login_failures_email_idx ON login_failures (email, created_at);

CREATE INDEX management_tokens_user_idx ON management_tokens (user_id);

-- What GET /manage/v1/emails shows when the sent text holds a secret (an invitation link).
ALTER TABLE emails ADD COLUMN display_text text;
-- When a queued email may be tried again after a failed attempt (null: at once).
ALTER TABLE emails ADD COLUMN next_attempt_at timestamptz(3);
