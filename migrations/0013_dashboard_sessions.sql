-- Dashboard sign-in: cookie sessions and password resets. Like management tokens, only a SHA-256
-- hash of each credential is kept: the cookie's and the reset link's text never reach the database.

CREATE TABLE dashboard_sessions (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz(3) NOT NULL,
  -- Idle expiry counts from here; written at most once a minute per session.
  last_used_at timestamptz(3) NOT NULL,
  -- The absolute end, however active the session is.
  expires_at timestamptz(3) NOT NULL
);
CREATE INDEX dashboard_sessions_user_idx ON dashboard_sessions (user_id);

CREATE TABLE password_resets (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  created_at timestamptz(3) NOT NULL,
  expires_at timestamptz(3) NOT NULL,
  used_at timestamptz(3)
);
CREATE INDEX password_resets_user_idx ON password_resets (user_id);
