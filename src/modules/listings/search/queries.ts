// Every SQL statement of listing search (docs/search.md states the plans they rely on). Each names
// marketplace_id and mode, and repeats the searchable predicate of the partial indexes of
// migrations/0009_search.sql word for word, so the planner can use them.
import { PLAN_EACH_CALL, type Queryable } from '../../../db/db.js';
import type { Scope } from '../../../scope.js';
import { LISTING_COLUMNS, type ListingRow } from '../queries.js';

const SEARCHABLE = `status = 'published' AND quantity_reserved + quantity_sold < quantity`;

export interface SearchFilter {
  /** The web-search text, as given; null without `q`. */
  q: string | null;
  /** The category and its descendants; null without `category`. */
  categoryIds: string[] | null;
  seller: string | null;
  minPrice: number | null;
  maxPrice: number | null;
  /** Attribute key → the exact stored text. */
  attributeEquals: Record<string, string>;
  /** Numeric bounds on attributes; `value` is decimal text. */
  attributeBounds: Array<{ key: string; op: 'gte' | 'lte'; value: string }>;
}

/** The statement's conditions after the scope, and its parameters ($1, $2 are the scope). */
class Where {
  readonly params: unknown[];
  private readonly conditions: string[] = [];

  constructor(scope: Scope) {
    this.params = [scope.marketplaceId, scope.mode];
  }

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  add(condition: string): void {
    this.conditions.push(condition);
  }

  toString(): string {
    return [SEARCHABLE, ...this.conditions].join(' AND ');
  }
}

/**
 * The tsquery of `q`. Every statement here begins with PLAN_EACH_CALL, so it is planned with its
 * parameters' values: the planner folds this to a constant and estimates its selectivity from the
 * search vector's statistics, and that estimate picks between the text index (rare words) and a
 * walk of an ordered index (common words). A generic plan (a named statement's, after five calls)
 * would pick one for every word: the text index, which ranks every match of a common word.
 */
function tsquery(where: Where, q: string): string {
  return `websearch_to_tsquery('simple', search_unaccent(${where.param(q)}))`;
}

function filtered(scope: Scope, filter: SearchFilter): { where: Where; query: string | null } {
  const where = new Where(scope);
  const query = filter.q === null ? null : tsquery(where, filter.q);
  if (query !== null) where.add(`search_vector @@ ${query}`);
  const ids = filter.categoryIds;
  const equals = Object.keys(filter.attributeEquals).length > 0;
  if (ids !== null) {
    // With text or attribute equality, the categories are asked in the form the GIN indexes hold
    // them beside the text and the attributes, so one index scan intersects both. Otherwise one
    // category is an equality, so its (category, id) index yields rows already in order.
    if (query !== null || equals) where.add(`ARRAY[category_id] && ${where.param(ids)}::text[]`);
    else where.add(ids.length === 1 ? `category_id = ${where.param(ids[0])}` : `category_id = ANY(${where.param(ids)}::text[])`);
  }
  if (filter.seller !== null) where.add(`seller_id = ${where.param(filter.seller)}`);
  if (filter.minPrice !== null) where.add(`price_amount >= ${where.param(filter.minPrice)}`);
  if (filter.maxPrice !== null) where.add(`price_amount <= ${where.param(filter.maxPrice)}`);
  if (equals) where.add(`attributes @> ${where.param(JSON.stringify(filter.attributeEquals))}::jsonb`);
  for (const bound of filter.attributeBounds) {
    const op = bound.op === 'gte' ? '>=' : '<=';
    where.add(`search_number(attributes ->> ${where.param(bound.key)}) ${op} ${where.param(bound.value)}::numeric`);
  }
  return { where, query };
}

/** Newest first (by id: ids sort by creation), price ascending or price descending. */
export type KeysetOrder =
  | { sort: 'newest'; beforeId: string | null }
  | { sort: 'price_asc' | 'price_desc'; after: { price: number; id: string } | null };

/**
 * Up to `rows` results in keyset order after the given position. The position is a row
 * comparison on the index's own columns, so a deep page seeks straight to it.
 */
export async function selectSearchPage(q: Queryable, scope: Scope, filter: SearchFilter, order: KeysetOrder, rows: number): Promise<ListingRow[]> {
  const { where } = filtered(scope, filter);
  let orderBy: string;
  if (order.sort === 'newest') {
    if (order.beforeId !== null) where.add(`id < ${where.param(order.beforeId)}`);
    orderBy = 'id DESC';
  } else {
    const ascending = order.sort === 'price_asc';
    if (order.after !== null) {
      where.add(`(price_amount, id) ${ascending ? '>' : '<'} (${where.param(order.after.price)}::bigint, ${where.param(order.after.id)})`);
    }
    orderBy = ascending ? 'price_amount, id' : 'price_amount DESC, id DESC';
  }
  const limit = where.param(rows);
  return q.query<ListingRow>(`${PLAN_EACH_CALL}SELECT ${LISTING_COLUMNS} FROM listings WHERE marketplace_id = $1 AND mode = $2 AND ${where} ORDER BY ${orderBy} LIMIT ${limit}`, where.params);
}

export interface RankedRow extends ListingRow {
  rank: number;
  window_low: string;
  window_high: string;
}

/**
 * Relevance, phase 1: the candidates are the newest `candidates` matches (first page), or the
 * matches whose ids lie in the window the first page fixed (later pages); they are ranked with
 * ts_rank and returned by (rank desc, id desc) after the given position. Only the candidates are
 * ranked, so the cost does not grow with the number of matches (docs/search.md).
 * Only (id, rank) go through the window and the sort; the page's rows are read by primary key
 * afterwards. Carrying whole rows (descriptions, attributes) through them cost three times as much
 * (8.4 ms against 2.7 ms per call at 1,000,000 listings, docs/search.md "Plans"). One statement, so
 * the rows read back are those of the same snapshot that ranked them.
 */
export async function selectRankedPage(
  q: Queryable,
  scope: Scope,
  filter: SearchFilter & { q: string },
  window: [string, string] | null,
  after: { rank: number; id: string } | null,
  candidates: number,
  rows: number,
): Promise<RankedRow[]> {
  const { where, query } = filtered(scope, filter);
  let bound = '';
  if (window === null) bound = `ORDER BY id DESC LIMIT ${where.param(candidates)}`;
  else where.add(`id BETWEEN ${where.param(window[0])} AND ${where.param(window[1])}`);
  const position = after === null ? '' : `WHERE (rank, id) < (${where.param(after.rank)}::real, ${where.param(after.id)})`;
  const limit = where.param(rows);
  return q.query<RankedRow>(
    `${PLAN_EACH_CALL}WITH candidates AS (
       SELECT id, ts_rank(search_vector, ${query}) AS rank FROM listings
        WHERE marketplace_id = $1 AND mode = $2 AND ${where} ${bound}
     ), windowed AS (
       SELECT id, rank, min(id) OVER () AS window_low, max(id) OVER () AS window_high FROM candidates
     ), page AS (
       SELECT * FROM windowed ${position} ORDER BY rank DESC, id DESC LIMIT ${limit}
     )
     SELECT ${LISTING_COLUMNS}, rank, window_low, window_high
       FROM page JOIN listings USING (id)
      WHERE marketplace_id = $1 AND mode = $2
      ORDER BY rank DESC, id DESC`,
    where.params,
  );
}
