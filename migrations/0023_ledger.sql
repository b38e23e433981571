-- The ledger (docs/ledger.md, docs/decisions/ledger.md): one row per line of a journal entry (a line
-- is a balance transaction, btx_…; its entry is jrn_…). Append-only: a correction is a new entry,
-- and the trigger below refuses every UPDATE and DELETE. `amount` is signed, positive when the
-- account's balance grows; `side` is the account's normal side, so an entry balances iff
-- SUM(CASE side WHEN 'debit' THEN amount ELSE -amount END) = 0 over its lines. It keeps ids and
-- amounts only (no personal data): erasure does not touch it.
CREATE TABLE ledger_lines (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  entry_id text NOT NULL,
  type text NOT NULL,
  account text NOT NULL,
  side text NOT NULL CHECK (side IN ('debit', 'credit')),
  amount bigint NOT NULL CHECK (amount <> 0),
  currency text NOT NULL,
  -- What caused the entry: pay_…, ref_… or cdp_….
  source_id text NOT NULL,
  payment_id text NOT NULL,
  order_id text,
  -- The entry's seller, on both of its lines (so ?seller= finds both sides).
  seller_id text,
  -- The processor's id of the movement (ch_/pi_, re_, tr_, trr_, dp_), for reconciliation.
  processor_ref text,
  created_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, id)
);
-- GET /v1/balance_transactions?seller= (one index walk per page, newest first).
CREATE INDEX ledger_lines_seller_idx ON ledger_lines (marketplace_id, mode, seller_id, id);
-- ?seller=&type= and ?type=: without these a page walks the seller's (or every) line and filters
-- by type, reading the lines of every other type in between (4,870 lines for a page of a busy
-- seller's refunds in the 1,000,000-line bench; all of its lines for a rare type). Its INCLUDE
-- columns let GET /v1/sellers/{id}/balance sum a seller's lines from the index alone (an index-only
-- scan: 3,273 buffers instead of 38,973 for 79,142 lines).
CREATE INDEX ledger_lines_seller_type_idx ON ledger_lines (marketplace_id, mode, seller_id, type, id) INCLUDE (account, amount, currency);
CREATE INDEX ledger_lines_type_idx ON ledger_lines (marketplace_id, mode, type, id);
-- ?order= and the order page's ledger.
CREATE INDEX ledger_lines_order_idx ON ledger_lines (marketplace_id, mode, order_id, id);
-- A payment's positions (syncPaymentLedger, the invariants job).
CREATE INDEX ledger_lines_payment_idx ON ledger_lines (marketplace_id, mode, payment_id);
-- Balances at a time and an interval's movements by account (reports).
CREATE INDEX ledger_lines_account_idx ON ledger_lines (marketplace_id, mode, account, created_at);
-- ?account= (one index walk per page, newest first; the index above orders by time, not id).
CREATE INDEX ledger_lines_account_id_idx ON ledger_lines (marketplace_id, mode, account, id);
-- An entry's lines (the invariants job's balance check of new entries).
CREATE INDEX ledger_lines_entry_idx ON ledger_lines (marketplace_id, mode, entry_id);

CREATE FUNCTION ledger_lines_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'MK002', MESSAGE = 'ledger_lines is append-only: a correction is a new entry';
END
$$;
CREATE TRIGGER ledger_lines_append_only BEFORE UPDATE OR DELETE ON ledger_lines
  FOR EACH ROW EXECUTE FUNCTION ledger_lines_append_only();

-- The invariants job (docs/ledger.md, "Invariants"): how far each mode's lines were checked, and
-- every violation found (the ledger_invariant_violations counter of GET /metrics counts these rows,
-- so a worker process with no HTTP server still reports, and a restart forgets nothing).
CREATE TABLE ledger_invariant_state (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  -- The newest line whose entry was checked by the incremental pass.
  checked_line_id text NOT NULL,
  PRIMARY KEY (marketplace_id, mode)
);
CREATE TABLE ledger_invariant_violations (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id bigint GENERATED ALWAYS AS IDENTITY,
  -- entry_balances, payment_positions or card_dispute_entries.
  check_name text NOT NULL,
  -- The entry, payment or card dispute found wrong.
  subject_id text NOT NULL,
  detail text NOT NULL,
  found_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, id)
);
-- One row per wrong subject and check: a later pass finding it again does not count it twice.
CREATE UNIQUE INDEX ledger_invariant_violations_subject_key ON ledger_invariant_violations (marketplace_id, mode, check_name, subject_id);
