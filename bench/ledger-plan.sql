-- The plans of docs/ledger.md ("A million lines"): psql postgres://postgres@127.0.0.1:5432/postgres -f bench/ledger-plan.sql
-- (a scratch database with the ledger table and indexes of migrations/0023_ledger.sql, dropped at the end).
DROP DATABASE IF EXISTS ledger_plan_scratch;
CREATE DATABASE ledger_plan_scratch;
\c ledger_plan_scratch
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
-- ?order= and the order page's ledger.
CREATE INDEX ledger_lines_order_idx ON ledger_lines (marketplace_id, mode, order_id, id);
-- A payment's positions (syncPaymentLedger, the invariants job).
CREATE INDEX ledger_lines_payment_idx ON ledger_lines (marketplace_id, mode, payment_id);
-- Balances at a time and an interval's movements by account (seller balance, reports).
CREATE INDEX ledger_lines_account_idx ON ledger_lines (marketplace_id, mode, account, created_at);
-- An entry's lines (the invariants job's balance check of new entries).
CREATE INDEX ledger_lines_entry_idx ON ledger_lines (marketplace_id, mode, entry_id);
-- 1,000,000 lines: 500,000 two-line entries over 1,000 sellers in one marketplace's test mode.
INSERT INTO ledger_lines (marketplace_id, mode, id, entry_id, type, account, side, amount, currency, source_id, payment_id, order_id, seller_id, created_at)
SELECT 'mkt_1', 'test', 'btx_' || lpad(g::text, 26, '0'), 'jrn_' || lpad((g / 2)::text, 26, '0'), 'charge',
       CASE WHEN g % 2 = 0 THEN 'buyer_funds' ELSE 'seller:sel_' || lpad(((g / 2) % 1000)::text, 26, '0') END,
       CASE WHEN g % 2 = 0 THEN 'debit' ELSE 'credit' END, 1000, 'USD',
       'pay_' || lpad((g / 2)::text, 26, '0'), 'pay_' || lpad((g / 2)::text, 26, '0'), 'ord_' || lpad((g / 2)::text, 26, '0'),
       'sel_' || lpad(((g / 2) % 1000)::text, 26, '0'), timestamptz '2026-01-01' + (g || ' seconds')::interval
  FROM generate_series(1, 1000000) g;
ANALYZE ledger_lines;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)
SELECT id, entry_id, type, account, side, amount, currency, source_id, payment_id, order_id, seller_id, processor_ref, created_at
  FROM ledger_lines WHERE marketplace_id = 'mkt_1' AND mode = 'test' AND seller_id = 'sel_00000000000000000000000042'
   AND id < 'btx_00000000000000000000500000' ORDER BY id DESC LIMIT 21;
EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)
SELECT account, currency, sum(amount)::bigint FROM ledger_lines
 WHERE marketplace_id = 'mkt_1' AND mode = 'test' AND created_at < '2026-01-06' GROUP BY account, currency;
\c postgres
DROP DATABASE ledger_plan_scratch;
