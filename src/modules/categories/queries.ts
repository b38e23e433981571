// Every SQL statement of the categories module. Each one names marketplace_id and mode.
import type { Queryable, Tx } from '../../db/db.js';
import { selectPage, type PageRequest } from '../../db/paging.js';
import type { Scope } from '../../scope.js';
import type { AttributeSchemaValue, CategoryFee } from './schemas.js';

export interface CategoryRow {
  id: string;
  key: string;
  name: string;
  description: string | null;
  parent_id: string | null;
  attribute_schema: AttributeSchemaValue;
  fee: CategoryFee | null;
  prohibited: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, key, name, description, parent_id, attribute_schema, fee, prohibited, created_at, updated_at';

/** The unique index on (marketplace_id, mode, key); a violation of it means the key is taken. */
export const CATEGORY_KEY_CONSTRAINT = 'categories_key_key';

export interface CategoryValues {
  name: string;
  description: string | null;
  parent_id: string | null;
  fee: CategoryFee | null;
  prohibited: boolean;
}

export async function insertCategory(
  tx: Tx,
  scope: Scope,
  category: CategoryValues & { id: string; key: string; attribute_schema: AttributeSchemaValue; now: Date },
): Promise<CategoryRow> {
  const rows = await tx.query<CategoryRow>(
    `INSERT INTO categories (marketplace_id, mode, id, key, name, description, parent_id, attribute_schema, fee, prohibited,
                             created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)
     RETURNING ${COLUMNS}`,
    [
      scope.marketplaceId,
      scope.mode,
      category.id,
      category.key,
      category.name,
      category.description,
      category.parent_id,
      JSON.stringify(category.attribute_schema),
      category.fee === null ? null : JSON.stringify(category.fee),
      category.prohibited,
      category.now,
    ],
  );
  return rows[0]!;
}

export async function selectCategory(q: Queryable, scope: Scope, id: string): Promise<CategoryRow | null> {
  const rows = await q.query<CategoryRow>(`SELECT ${COLUMNS} FROM categories WHERE marketplace_id = $1 AND mode = $2 AND id = $3`, [
    scope.marketplaceId,
    scope.mode,
    id,
  ]);
  return rows[0] ?? null;
}

/**
 * The category, locked until the transaction ends: `share` keeps it (its schema, its prohibited
 * flag) unchanged for the caller; `update` is for changing it.
 */
export async function lockCategory(tx: Tx, scope: Scope, id: string, lock: 'share' | 'update'): Promise<CategoryRow | null> {
  const rows = await tx.query<CategoryRow>(
    `SELECT ${COLUMNS} FROM categories WHERE marketplace_id = $1 AND mode = $2 AND id = $3 ${lock === 'share' ? 'FOR SHARE' : 'FOR UPDATE'}`,
    [scope.marketplaceId, scope.mode, id],
  );
  return rows[0] ?? null;
}

export async function selectCategoryKeyTaken(q: Queryable, scope: Scope, key: string): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM categories WHERE marketplace_id = $1 AND mode = $2 AND key = $3', [
    scope.marketplaceId,
    scope.mode,
    key,
  ]);
  return rows.length > 0;
}

/** A page of categories, newest first, limit + 1 rows so the caller can tell has_more. */
export function selectCategories(q: Queryable, scope: Scope, page: PageRequest): Promise<CategoryRow[]> {
  return selectPage<CategoryRow>(q, {
    sql: `SELECT ${COLUMNS} FROM categories WHERE marketplace_id = $1 AND mode = $2`,
    params: [scope.marketplaceId, scope.mode],
    page,
  });
}

export async function updateCategoryValues(
  tx: Tx,
  scope: Scope,
  id: string,
  values: CategoryValues,
  now: Date,
): Promise<CategoryRow> {
  const rows = await tx.query<CategoryRow>(
    `UPDATE categories SET name = $4, description = $5, parent_id = $6, fee = $7, prohibited = $8, updated_at = $9
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3
      RETURNING ${COLUMNS}`,
    [
      scope.marketplaceId,
      scope.mode,
      id,
      values.name,
      values.description,
      values.parent_id,
      values.fee === null ? null : JSON.stringify(values.fee),
      values.prohibited,
      now,
    ],
  );
  return rows[0]!;
}

export async function updateAttributeSchema(
  tx: Tx,
  scope: Scope,
  id: string,
  schema: AttributeSchemaValue,
  now: Date,
): Promise<CategoryRow> {
  const rows = await tx.query<CategoryRow>(
    `UPDATE categories SET attribute_schema = $4, updated_at = $5
      WHERE marketplace_id = $1 AND mode = $2 AND id = $3
      RETURNING ${COLUMNS}`,
    [scope.marketplaceId, scope.mode, id, JSON.stringify(schema), now],
  );
  return rows[0]!;
}

/**
 * Serialises changes of parents within one marketplace and mode, so two concurrent moves cannot
 * together make a cycle that neither would make alone.
 */
export async function lockCategoryTree(tx: Tx, scope: Scope): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`categories:${scope.marketplaceId}:${scope.mode}`]);
}

/** The ids of a category and all its ancestors. */
export async function selectAncestorIds(q: Queryable, scope: Scope, id: string): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `WITH RECURSIVE up (id, parent_id) AS (
       SELECT id, parent_id FROM categories WHERE marketplace_id = $1 AND mode = $2 AND id = $3
       UNION
       SELECT c.id, c.parent_id FROM categories c JOIN up ON c.id = up.parent_id
        WHERE c.marketplace_id = $1 AND c.mode = $2
     )
     SELECT id FROM up`,
    [scope.marketplaceId, scope.mode, id],
  );
  return rows.map((row) => row.id);
}

/** The ids of a category and all its descendants (the category first); none when it does not exist. */
export async function selectSubtreeIds(q: Queryable, scope: Scope, id: string): Promise<string[]> {
  const rows = await q.query<{ id: string }>(
    `WITH RECURSIVE down (id, depth) AS (
       SELECT id, 0 FROM categories WHERE marketplace_id = $1 AND mode = $2 AND id = $3
       UNION
       SELECT c.id, down.depth + 1 FROM categories c JOIN down ON c.parent_id = down.id
        WHERE c.marketplace_id = $1 AND c.mode = $2
     )
     SELECT id FROM down ORDER BY depth, id`,
    [scope.marketplaceId, scope.mode, id],
  );
  return rows.map((row) => row.id);
}

/**
 * Listings of a category that are not removed, a page at a time by id (for the schema check).
 * The one statement of a module on another module's table: listings depend on categories (a
 * listing is checked against its category), so asking the listings module would make the
 * dependency go both ways. Read only, inside the replacement's transaction.
 */
export async function selectLiveListingAttributes(
  q: Queryable,
  scope: Scope,
  categoryId: string,
  afterId: string | null,
  limit: number,
): Promise<Array<{ id: string; attributes: Record<string, string> }>> {
  return q.query(
    `SELECT id, attributes FROM listings
      WHERE marketplace_id = $1 AND mode = $2 AND category_id = $3 AND status <> 'removed' AND ($4::text IS NULL OR id > $4)
      ORDER BY id LIMIT $5`,
    [scope.marketplaceId, scope.mode, categoryId, afterId, limit],
  );
}

/** The categories of these ids, in one statement (expand[]); an id not found is absent. */
export function selectCategoriesByIds(q: Queryable, scope: Scope, ids: readonly string[]): Promise<CategoryRow[]> {
  return q.query<CategoryRow>(`SELECT ${COLUMNS} FROM categories WHERE marketplace_id = $1 AND mode = $2 AND id = ANY($3)`, [scope.marketplaceId, scope.mode, ids]);
}
