// List envelope and cursor paging (interface.md 2.1, contract 4): newest first, next_cursor is the
// id of the page's last object, passed back as starting_after. Ids sort by creation, so a page is
// "id < cursor ORDER BY id DESC LIMIT n+1"; the extra row tells has_more.
import { errors } from '../errors.js';
import { isIdOf, type IdKind } from '../ids.js';

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

/** Reads limit and starting_after; a cursor that is not an id of the listed kind is refused. */
export function pageRequest(query: { limit?: number; starting_after?: string }, kind: IdKind): PageRequest {
  const startingAfter = query.starting_after ?? null;
  if (startingAfter !== null && !isIdOf(kind, startingAfter)) {
    throw errors.invalidRequest(`starting_after must be the id of an object of this list ('${startingAfter}' is not).`, 'starting_after');
  }
  return { limit: query.limit ?? 20, startingAfter };
}

/** Turns limit+1 fetched rows into the list envelope. */
export function toList<T extends { id: string }>(rows: T[], limit: number): ListEnvelope<T> {
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  return { object: 'list', data, has_more: hasMore, next_cursor: hasMore ? (data[data.length - 1]?.id ?? null) : null };
}
