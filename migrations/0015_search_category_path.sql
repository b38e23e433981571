-- Search within a category subtree through one index entry (docs/search.md, "Indexes").
-- category_path is the listing's category and its ancestors, root first ('{}' without a
-- category). Search's GIN indexes hold it instead of ARRAY[category_id], so "text (or an
-- attribute value) within this category and its descendants" intersects the word's entries with
-- the one entry of the asked category, however many categories lie below it, instead of the
-- union of every category of the subtree. Listing writes copy the path of the category they set;
-- a category move rewrites the paths of the listings below it in its own transaction
-- (src/modules/category-moves.ts), so the path is never behind the tree.

ALTER TABLE listings ADD COLUMN category_path text[] NOT NULL DEFAULT '{}';

WITH RECURSIVE paths (marketplace_id, mode, id, path) AS (
  SELECT marketplace_id, mode, id, ARRAY[id] FROM categories WHERE parent_id IS NULL
  UNION ALL
  SELECT c.marketplace_id, c.mode, c.id, p.path || c.id
    FROM categories c JOIN paths p ON c.marketplace_id = p.marketplace_id AND c.mode = p.mode AND c.parent_id = p.id
)
UPDATE listings l SET category_path = paths.path
  FROM paths
 WHERE l.marketplace_id = paths.marketplace_id AND l.mode = paths.mode AND l.category_id = paths.id;

DROP INDEX listings_search_text_idx;
CREATE INDEX listings_search_text_idx ON listings USING gin (search_vector, category_path)
  WHERE status = 'published' AND quantity_reserved + quantity_sold < quantity;
DROP INDEX listings_search_attributes_idx;
CREATE INDEX listings_search_attributes_idx ON listings USING gin (category_path, attributes jsonb_path_ops)
  WHERE status = 'published' AND quantity_reserved + quantity_sold < quantity;
