// GET /v1/search/listings (interface.md 4.6, contract 8; docs/search.md): reads the parameters,
// checks them (every bad one answers 400 naming it), and walks the results by cursor. Searchable
// listings are the published ones with something available; both kinds of key see the same.
import type { ListEnvelope } from '../../../db/paging.js';
import { errors } from '../../../errors.js';
import { findCategorySubtreeIds, requireCategory } from '../../categories/index.js';
import type { OperationContext } from '../../../contracts/context.js';
import { readyMediaOfListings } from '../../media/index.js';
import type { ListingRow } from '../queries.js';
import { SEARCH_ATTRIBUTE_PARAM, type Listing, type SearchListingsQuery, type SearchSort } from '../schemas.js';
import { serializeListing } from '../serialize.js';
import { decodeCursor, encodeCursor, type SearchPosition } from './cursor.js';
import { selectRankedPage, selectSearchPage, type SearchFilter } from './queries.js';

const DEFAULT_LIMIT = 20;
const NUMBER_TEXT = /^-?\d{1,30}(\.\d{1,30})?$/;
const ATTRIBUTE_PARAM = new RegExp(SEARCH_ATTRIBUTE_PARAM);

interface Found {
  row: ListingRow;
  position: SearchPosition;
}

export async function searchListings(ctx: OperationContext, query: SearchListingsQuery): Promise<ListEnvelope<Listing>> {
  const sort: SearchSort = query.sort ?? 'newest';
  const limit = query.limit ?? DEFAULT_LIMIT;
  const filter = await readFilter(ctx, query);
  if (sort === 'relevance' && filter.q === null) throw errors.invalidRequest('sort=relevance needs q.', 'sort');
  // The category as asked, not its subtree: a category added below it between pages keeps the cursor valid.
  const fingerprint = JSON.stringify([sort, { ...filter, categoryIds: query.category ?? null }]);
  const secret = ctx.config.secretKey;
  if (query.cursor !== undefined && query.starting_after !== undefined) {
    throw errors.invalidRequest('Give cursor or starting_after (the same thing under two names), not both.', 'starting_after');
  }
  const cursor = query.starting_after ?? query.cursor;
  const position = cursor === undefined ? null : decodeCursor(secret, ctx.scope, fingerprint, cursor, query.starting_after === undefined ? 'cursor' : 'starting_after');
  const found = sort === 'relevance' ? await relevancePage(ctx, filter, position, limit) : await keysetPage(ctx, filter, sort, position, limit);
  const hasMore = found.length > limit;
  const page = found.slice(0, limit);
  const last = page[page.length - 1];
  const media = await readyMediaOfListings(ctx.db, ctx.hooks.storage, ctx.clock, ctx.scope, page.map((item) => item.row.id));
  return {
    object: 'list',
    data: page.map((item) => serializeListing(item.row, media.get(item.row.id))),
    has_more: hasMore,
    next_cursor: hasMore && last ? encodeCursor(secret, ctx.scope, fingerprint, last.position) : null,
  };
}

async function keysetPage(
  ctx: OperationContext,
  filter: SearchFilter,
  sort: Exclude<SearchSort, 'relevance'>,
  position: SearchPosition | null,
  limit: number,
): Promise<Found[]> {
  if (sort === 'newest') {
    const beforeId = position?.sort === 'newest' ? position.id : null;
    const rows = await selectSearchPage(ctx.db, ctx.scope, filter, { sort, beforeId }, limit + 1);
    return rows.map((row) => ({ row, position: { sort, id: row.id } }));
  }
  const after = position?.sort === sort ? { price: position.price, id: position.id } : null;
  const rows = await selectSearchPage(ctx.db, ctx.scope, filter, { sort, after }, limit + 1);
  return rows.map((row) => ({ row, position: { sort, price: Number(row.price_amount), id: row.id } }));
}

/**
 * Relevance ranks the newest SEARCH_RELEVANCE_CANDIDATES matches (after the filters); older
 * matches follow them, newest first. Ranking a bounded set keeps a word that matches half the
 * catalogue as fast as a rare one (docs/search.md, "Relevance").
 * Phase 1: the candidates ranked, by (rank, id). The first page fixes them as an id window (the
 * oldest and newest candidate), so later pages rank the same listings even while newer ones are
 * created. Phase 2, once they run out: the older matches, newest first.
 */
async function relevancePage(ctx: OperationContext, filter: SearchFilter, position: SearchPosition | null, limit: number): Promise<Found[]> {
  const text = filter as SearchFilter & { q: string };
  const at = position?.sort === 'relevance' ? position : null;
  let window = at?.window ?? null;
  const found: Found[] = [];
  if (at === null || at.phase === 1) {
    const after = at?.phase === 1 ? { rank: at.rank, id: at.id } : null;
    const ranked = await selectRankedPage(ctx.db, ctx.scope, text, window, after, ctx.config.searchRelevanceCandidates, limit + 1);
    const first = ranked[0];
    if (window === null) {
      if (first === undefined) return []; // nothing matches at all
      window = [first.window_low, first.window_high];
    }
    const fixed = window;
    for (const row of ranked) found.push({ row, position: { sort: 'relevance', phase: 1, rank: Number(row.rank), id: row.id, window: fixed } });
  }
  if (found.length > limit || window === null) return found;
  const fixed = window;
  const beforeId = at?.phase === 2 ? at.id : fixed[0];
  const older = await selectSearchPage(ctx.db, ctx.scope, filter, { sort: 'newest', beforeId }, limit + 1 - found.length);
  for (const row of older) found.push({ row, position: { sort: 'relevance', phase: 2, id: row.id, window: fixed } });
  return found;
}

/** The filters of the query, checked; the category's subtree is looked up once here. */
async function readFilter(ctx: OperationContext, query: SearchListingsQuery): Promise<SearchFilter> {
  if (query.min_price !== undefined && query.max_price !== undefined && query.min_price > query.max_price) {
    throw errors.invalidRequest('max_price must not be below min_price.', 'max_price');
  }
  const attributeEquals: Record<string, string> = {};
  const attributeBounds: SearchFilter['attributeBounds'] = [];
  for (const [param, value] of Object.entries(query as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const match = ATTRIBUTE_PARAM.exec(param);
    if (!match || typeof value !== 'string') continue;
    const key = match[1]!;
    const op = match[2] as 'gte' | 'lte' | undefined;
    if (op === undefined) {
      attributeEquals[key] = value;
      continue;
    }
    if (!NUMBER_TEXT.test(value)) throw errors.invalidRequest(`${param} must be a decimal number.`, param);
    if (query.category === undefined) throw errors.invalidRequest(`${param} needs a category whose schema defines '${key}' as a number.`, param);
    attributeBounds.push({ key, op, value });
  }
  let categoryIds: string[] | null = null;
  if (query.category !== undefined) {
    categoryIds = await findCategorySubtreeIds(ctx.db, ctx.scope, query.category);
    if (categoryIds.length === 0) throw errors.invalidRequest(`No such category: '${query.category}'.`, 'category');
    if (attributeBounds.length > 0) {
      const { attribute_schema: schema } = await requireCategory(ctx.db, ctx.scope, query.category, 'category');
      for (const bound of attributeBounds) {
        const definition = schema.attributes.find((candidate) => candidate.key === bound.key);
        if (definition?.type !== 'number' && definition?.type !== 'integer') {
          const param = `attributes[${bound.key}][${bound.op}]`;
          throw errors.invalidRequest(`The category does not define '${bound.key}' as a number or integer attribute.`, param);
        }
      }
    }
  }
  return {
    q: query.q ?? null,
    categoryIds,
    seller: query.seller ?? null,
    minPrice: query.min_price ?? null,
    maxPrice: query.max_price ?? null,
    attributeEquals,
    attributeBounds,
  };
}
