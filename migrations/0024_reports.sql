-- Reports (docs/ledger.md, "Reports"): a CSV built by a background job (the reports module's
-- report.build kind) from the ledger, or from the ledger and the processor's own records
-- (reconciliation), stored like media and read through a signed link.
CREATE TABLE reports (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  id text NOT NULL,
  type text NOT NULL CHECK (type IN ('seller_statement', 'platform_fees', 'balance_summary', 'reconciliation')),
  interval_start timestamptz(3) NOT NULL,
  interval_end timestamptz(3) NOT NULL,
  -- Set for seller_statement only.
  seller_id text,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  failure text,
  -- Where the storage driver keeps the file, its size and its data rows (header not counted); set when succeeded.
  file_key text,
  file_size bigint,
  row_count bigint,
  created_at timestamptz(3) NOT NULL,
  completed_at timestamptz(3),
  PRIMARY KEY (marketplace_id, mode, id),
  CHECK (interval_end > interval_start),
  CHECK ((type = 'seller_statement') = (seller_id IS NOT NULL)),
  FOREIGN KEY (marketplace_id, mode, seller_id) REFERENCES sellers (marketplace_id, mode, id)
);
-- GET /v1/reports?type=…&status=…, newest first.
CREATE INDEX reports_type_idx ON reports (marketplace_id, mode, type, id);
CREATE INDEX reports_status_idx ON reports (marketplace_id, mode, status, id);

-- The simulated processor's own books (test mode): what it charged, refunded, transferred,
-- reversed and withdrew for card disputes, written as it does so, so the reconciliation report
-- compares the ledger with a record kept apart from it, as it does with Stripe's.
-- Keyed by the processor's object id: the simulated driver's ids come from idempotency keys, so a
-- retried call records nothing twice.
CREATE TABLE simulated_processor_records (
  marketplace_id text NOT NULL,
  mode text NOT NULL,
  reference text NOT NULL,
  -- charge | refund | transfer | transfer_reversal | dispute
  type text NOT NULL CHECK (type IN ('charge', 'refund', 'transfer', 'transfer_reversal', 'dispute')),
  -- The object's amount, positive: the type says which way the money went (BalanceRecord, src/contracts/processor.ts).
  amount bigint NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  created_at timestamptz(3) NOT NULL,
  PRIMARY KEY (marketplace_id, mode, reference)
);
CREATE INDEX simulated_processor_records_created_idx ON simulated_processor_records (marketplace_id, mode, created_at, reference);
