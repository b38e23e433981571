-- Invitations reach only the invitee's mailbox, and addresses are proved (issue 21; docs/security.md).

-- A member is pending until the invitation to this workspace is accepted: accepted_at is null, and
-- every access query asks for a non-null one. Members of before keep the access they had: those
-- with a password were active, invited users without one were not.
ALTER TABLE workspace_members ADD COLUMN accepted_at timestamptz(3);
UPDATE workspace_members wm SET accepted_at = wm.created_at
  FROM users u WHERE u.id = wm.user_id AND u.password_hash IS NOT NULL;
CREATE INDEX workspace_members_pending_idx ON workspace_members (workspace_id) WHERE accepted_at IS NULL;

-- When the user proved their address (a verification link, or an accepted invitation). Accounts
-- of before count as proved: they were made under the old rules, and nothing can be proved now.
ALTER TABLE users ADD COLUMN email_verified_at timestamptz(3);
UPDATE users SET email_verified_at = created_at WHERE password_hash IS NOT NULL;

-- Verification links: like password resets, only the SHA-256 of the token is kept.
CREATE TABLE email_verifications (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  created_at timestamptz(3) NOT NULL,
  expires_at timestamptz(3) NOT NULL,
  used_at timestamptz(3)
);
CREATE INDEX email_verifications_user_idx ON email_verifications (user_id);
