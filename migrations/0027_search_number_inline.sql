-- Listing search (docs/search.md, "Plans"): search_number() as 0009 made it, STRICT, is never
-- inlined (a STRICT SQL function whose body is a CASE is not), so a numeric attribute bound ran the
-- SQL-function executor once per row and bound: 2 calls on each of the ~340 rows an attribute
-- query reads at 1,000,000 listings. Without STRICT the planner writes its body into the
-- statement (EXPLAIN VERBOSE shows the CASE in the Filter). The result is the same: a null
-- argument fails the regular expression and gives null.
CREATE OR REPLACE FUNCTION search_number(text) RETURNS numeric
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN $1 ~ '^-?[0-9]{1,30}(\.[0-9]{1,30})?$' THEN $1::numeric END $$;
