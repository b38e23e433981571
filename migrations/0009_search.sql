-- Listing search (interface.md 4.6, contract 8; docs/search.md).
-- Everything search reads lives on the listings row itself, maintained by PostgreSQL in the same
-- statement that writes the row, so a change is searchable the moment its transaction commits.

CREATE EXTENSION IF NOT EXISTS unaccent;

-- unaccent() is only STABLE (it reads a dictionary that could be replaced), so it cannot feed a
-- generated column or an index. Naming the dictionary and schema fixes what it reads; declaring the
-- wrapper IMMUTABLE is the usual way to index unaccented text.
CREATE FUNCTION search_unaccent(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;

-- An attribute value read as a number when it is decimal text (the form the attribute schema's
-- number and integer types accept), else null: a numeric filter never fails on another
-- category's text value of the same key.
CREATE FUNCTION search_number(text) RETURNS numeric
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT CASE WHEN $1 ~ '^-?[0-9]{1,30}(\.[0-9]{1,30})?$' THEN $1::numeric END $$;

-- The 'simple' configuration lowercases and splits on non-letters without stemming or stop
-- words: it works the same for every language. Title weighs A, description B (ts_rank gives
-- them 1.0 and 0.4).
ALTER TABLE listings ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('simple'::regconfig, search_unaccent(title)), 'A')
  || setweight(to_tsvector('simple'::regconfig, search_unaccent(coalesce(description, ''))), 'B')
) STORED;

-- Every search index is partial on "searchable": published with something available. Each
-- search statement repeats this predicate word for word so the planner can use them.
CREATE INDEX listings_search_newest_idx ON listings (marketplace_id, mode, id)
  WHERE status = 'published' AND quantity_reserved + quantity_sold < quantity;
CREATE INDEX listings_search_price_idx ON listings (marketplace_id, mode, price_amount, id)
  WHERE status = 'published' AND quantity_reserved + quantity_sold < quantity;
CREATE INDEX listings_search_category_idx ON listings (marketplace_id, mode, category_id, id)
  WHERE status = 'published' AND quantity_reserved + quantity_sold < quantity;
CREATE INDEX listings_search_category_price_idx ON listings (marketplace_id, mode, category_id, price_amount, id)
  WHERE status = 'published' AND quantity_reserved + quantity_sold < quantity;
CREATE INDEX listings_search_seller_idx ON listings (marketplace_id, mode, seller_id, id)
  WHERE status = 'published' AND quantity_reserved + quantity_sold < quantity;
-- Text, and text within categories: a search with q and a category (and its descendants) asks
-- `ARRAY[category_id] && <subtree ids>` beside the text, and one scan of this index intersects
-- the word's entries with the categories' inside the index (docs/search.md, "Plans").
CREATE INDEX listings_search_text_idx ON listings USING gin (search_vector, (ARRAY[category_id]))
  WHERE status = 'published' AND quantity_reserved + quantity_sold < quantity;
-- Attribute equality, and attribute equality within categories, the same way.
CREATE INDEX listings_search_attributes_idx ON listings USING gin ((ARRAY[category_id]), attributes jsonb_path_ops)
  WHERE status = 'published' AND quantity_reserved + quantity_sold < quantity;
