-- An Idempotency-Key's claim names the API process that holds it (src/http/claim-owners.ts): each
-- process that claims keys on PostgreSQL takes an id from this sequence (never given twice) and
-- holds the advisory lock (727310003, id) while it lives; a claim whose owner's lock is free is
-- abandoned, and the next request with its key runs. Null: a claim made before this column (it
-- lapses at locked_until, as before) or any claim on PGlite.
CREATE SEQUENCE idempotency_claim_owners AS integer;
ALTER TABLE idempotency_keys ADD COLUMN claimed_by integer;
