-- Background work (docs/architecture.md, "Background work").
-- jobs: work that talks to the network (email now; webhook attempts and processor calls later).
-- A worker claims a row under a lease (status running, locked_by, locked_until) in a short
-- transaction, does the I/O with no transaction open, and records the outcome in a second one:
-- a success deletes the row, a failure puts it back queued at a later run_at, and the last
-- allowed failure leaves it failed with last_error, visible until someone deletes it.
-- A row belongs to one marketplace's mode (marketplace_id, mode) or, for workspace-level work
-- like the email outbox, to one workspace (workspace_id): never both, never neither.
-- run_at is on the row's clock: real time, or (clock 'mode', marketplace rows only) the mode's test
-- clock, due when run_at <= real now + marketplace_modes.clock_offset_ms. locked_until is real time.

CREATE TABLE jobs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL,
  marketplace_id text,
  mode text CHECK (mode IN ('test', 'live')),
  workspace_id text,
  subject_id text,
  concurrency_key text,
  payload jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'failed')),
  clock text NOT NULL DEFAULT 'real' CHECK (clock IN ('real', 'mode')),
  run_at timestamptz(3) NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  locked_by text,
  locked_until timestamptz(3),
  last_error text,
  created_at timestamptz(3) NOT NULL,
  failed_at timestamptz(3),
  CONSTRAINT jobs_one_owner CHECK (
    (marketplace_id IS NOT NULL AND mode IS NOT NULL AND workspace_id IS NULL)
    OR (marketplace_id IS NULL AND mode IS NULL AND workspace_id IS NOT NULL)
  ),
  CONSTRAINT jobs_mode_clock CHECK (clock = 'real' OR marketplace_id IS NOT NULL),
  CONSTRAINT jobs_lease CHECK ((status = 'running') = (locked_until IS NOT NULL AND locked_by IS NOT NULL))
);
CREATE INDEX jobs_queued_idx ON jobs (kind, run_at) WHERE status = 'queued';
CREATE INDEX jobs_running_idx ON jobs (kind, locked_until) WHERE status = 'running';
CREATE INDEX jobs_marketplace_idx ON jobs (marketplace_id, mode, kind) WHERE marketplace_id IS NOT NULL;
CREATE INDEX jobs_workspace_idx ON jobs (workspace_id, kind) WHERE workspace_id IS NOT NULL;

-- Emails already queued become jobs; their attempts so far count.
INSERT INTO jobs (kind, workspace_id, subject_id, run_at, attempts, created_at)
SELECT 'email.send', workspace_id, id, coalesce(next_attempt_at, created_at), attempts, created_at
  FROM emails WHERE status = 'queued';

-- Timers: a timer whose handler failed its last allowed attempt stays, failed, with last_error.
ALTER TABLE timers ADD COLUMN status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'failed'));
DROP INDEX timers_run_at_idx;
CREATE INDEX timers_due_idx ON timers (run_at) WHERE status = 'pending';
