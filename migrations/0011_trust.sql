-- Trust and safety (docs/trust-and-safety.md): flags raised against a listing, review, seller or
-- buyer, resolved by a moderator with a moderation action (moderation_actions, 0002) or dismissed.
-- target_id and reporter_id are not foreign keys: a target may be of four tables (and reviews
-- arrive in their own migration), and the reporter is a buyer or a seller.
CREATE TABLE flags (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  target_type text NOT NULL CHECK (target_type IN ('listing', 'review', 'seller', 'buyer')),
  target_id text NOT NULL,
  reporter_id text,
  reason text NOT NULL CHECK (reason IN ('prohibited_item', 'fraud', 'offensive', 'spam', 'other')),
  -- Free text of the reporter: nulled when the reporter is erased.
  description text,
  status text NOT NULL CHECK (status IN ('open', 'resolved')),
  resolution_action text CHECK (resolution_action IN ('dismiss', 'remove_listing', 'remove_review', 'suspend_seller')),
  resolution_note text,
  moderation_action_id text,
  created_at timestamptz(3) NOT NULL,
  resolved_at timestamptz(3),
  PRIMARY KEY (marketplace_id, mode, id),
  CHECK ((status = 'open') = (resolution_action IS NULL AND resolved_at IS NULL))
);
-- The open flags of a target (resolved together by one action) and the target filter.
CREATE INDEX flags_target_idx ON flags (marketplace_id, mode, target_id, status, id);
-- Erasure finds the flags a party reported.
CREATE INDEX flags_reporter_idx ON flags (marketplace_id, mode, reporter_id) WHERE reporter_id IS NOT NULL;
CREATE INDEX flags_status_idx ON flags (marketplace_id, mode, status, id);
