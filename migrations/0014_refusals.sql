-- A statement that must abort its transaction when its condition does not hold raises through
-- this function (volatile, so it is evaluated only when reached, never folded at planning). Order
-- creation sends its reservation together with the COMMIT (Tx.queryThenCommit, src/db/db.ts): a
-- reservation that finds too few units (or a listing no longer published) must stop the COMMIT
-- from committing the order written before it. SQLSTATE MK001; the message names the refusal.
-- src/db/errors.ts `refusal()` reads it back.
CREATE FUNCTION raise_refusal(reason text) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'MK001', MESSAGE = reason;
END
$$;
