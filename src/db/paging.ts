// Cursor paging of every list (docs/architecture.md): newest first, next_cursor is the id of the
// page's last object, passed back as starting_after. Ids sort by creation, so a page is
// "id < cursor ORDER BY id DESC LIMIT n+1"; the extra row tells has_more. One helper of each kind:
// pageRequest reads the list query, selectPage runs the statement, toList makes the envelope.
import { errors } from '../errors.js';
import { isIdOf, type IdKind } from '../ids.js';
import type { Queryable } from './db.js';

export interface ListEnvelope<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface PageRequest {
  limit: number;
  startingAfter: string | null;
}

/** limit and starting_after, as every list query schema declares them (PageQuery). */
export interface PageParams {
  limit?: number;
  starting_after?: string;
}

export const DEFAULT_PAGE_LIMIT = 20;

/** Reads limit and starting_after; a cursor that is not an id of the listed kind is refused. */
export function pageRequest(query: PageParams, kind: IdKind): PageRequest {
  const startingAfter = query.starting_after ?? null;
  if (startingAfter !== null && !isIdOf(kind, startingAfter)) {
    throw errors.invalidRequest(`starting_after must be the id of an object of this list ('${startingAfter}' is not).`, 'starting_after');
  }
  return { limit: query.limit ?? DEFAULT_PAGE_LIMIT, startingAfter };
}

/**
 * A page of a list made in memory (short and bounded: the event types, an order's transitions, a
 * user's workspaces), in the list's own order: the items after `starting_after` (the key of an
 * item of the list, as next_cursor gave it), `limit` of them. Paged like every list, so a client's
 * paging code needs no exception.
 */
export function pageOfItems<T>(items: readonly T[], query: PageParams, keyOf: (item: T) => string): ListEnvelope<T> {
  const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
  let from = 0;
  if (query.starting_after !== undefined) {
    const at = items.findIndex((item) => keyOf(item) === query.starting_after);
    if (at < 0) throw errors.invalidRequest(`starting_after must be the next_cursor of a page of this list ('${query.starting_after}' is not).`, 'starting_after');
    from = at + 1;
  }
  const data = items.slice(from, from + limit);
  const hasMore = from + limit < items.length;
  return { object: 'list', data, has_more: hasMore, next_cursor: hasMore ? keyOf(data[data.length - 1]!) : null };
}

/** Turns limit+1 fetched rows into the list envelope. */
export function toList<T extends { id: string }>(rows: T[], limit: number): ListEnvelope<T> {
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  return { object: 'list', data, has_more: hasMore, next_cursor: hasMore ? (data[data.length - 1]?.id ?? null) : null };
}

/** A list's bounds on its objects' creation time, as its `created[…]` query parameters gave them. */
export interface CreatedRange {
  createdGte?: Date;
  createdGt?: Date;
  createdLte?: Date;
  createdLt?: Date;
}

export interface PageStatement {
  /**
   * `SELECT … FROM … WHERE <tenant>`: the statement names its tenant itself (marketplace_id and
   * mode, or workspace_id for workspace-level tables) with the first parameters. The equality
   * filters, the cursor, ORDER BY and LIMIT are appended here.
   */
  sql: string;
  params: readonly unknown[];
  /** Column → value equality filters; undefined values are left out. Column names come from code, never input. */
  equals?: Readonly<Record<string, unknown>>;
  /**
   * Column expression → text it starts with, case-insensitively (`lower(expr) LIKE 'text%'`, the
   * text's `%`, `_` and `\` taken literally); undefined values are left out. An index on
   * `lower(expr) text_pattern_ops` serves it. Column names come from code, never input.
   */
  startsWith?: Readonly<Record<string, string | undefined>>;
  /** The list's `created[gte|gt|lte|lt]` filters (docs/requests.md, "Times") on its `created_at`; undefined bounds are left out. */
  created?: CreatedRange;
  /** The id column the list is ordered and paged by: `id`, or qualified when the statement joins (`s.id`). */
  idColumn?: string;
  page: PageRequest;
}

/** The rows of one page, newest first: limit + 1 of them at most, so toList() can tell has_more. */
export function selectPage<T>(q: Queryable, statement: PageStatement): Promise<T[]> {
  const params = [...statement.params];
  const conditions: string[] = [];
  const add = (condition: string, value: unknown) => {
    params.push(value);
    conditions.push(`${condition} $${params.length}`);
  };
  for (const [column, value] of Object.entries(statement.equals ?? {})) {
    if (value !== undefined) add(`${column} =`, value);
  }
  const created = statement.created ?? {};
  for (const [value, op] of [[created.createdGte, '>='], [created.createdGt, '>'], [created.createdLte, '<='], [created.createdLt, '<']] as const) {
    if (value !== undefined) add(`created_at ${op}`, value);
  }
  for (const [column, value] of Object.entries(statement.startsWith ?? {})) {
    if (value !== undefined) add(`lower(${column}) LIKE`, `${value.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`);
  }
  const id = statement.idColumn ?? 'id';
  if (statement.page.startingAfter !== null) add(`${id} <`, statement.page.startingAfter);
  params.push(statement.page.limit + 1);
  const filters = conditions.map((condition) => ` AND ${condition}`).join('');
  return q.query<T>(`${statement.sql}${filters} ORDER BY ${id} DESC LIMIT $${params.length}`, params);
}
