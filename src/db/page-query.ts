// The query behind every list operation: one marketplace and mode, equality filters, newest
// first, limit + 1 rows so toList() can tell has_more. Column names come from code, never input.
import type { PageRequest } from '../http/pagination.js';
import type { Scope } from '../scope.js';
import type { Queryable } from './db.js';

export interface PageQuery {
  /** `SELECT … FROM …` (joins allowed); the WHERE, ORDER BY and LIMIT are added here. */
  select: string;
  /** Table alias of the listed table when `select` joins others, e.g. 's'. */
  alias?: string;
  scope: Scope;
  /** Column → value equality filters of the listed table; undefined values are left out. */
  equals?: Record<string, unknown>;
  page: PageRequest;
}

export function selectPage<T>(q: Queryable, query: PageQuery): Promise<T[]> {
  const column = (name: string) => (query.alias ? `${query.alias}.${name}` : name);
  const params: unknown[] = [query.scope.marketplaceId, query.scope.mode];
  const conditions = [`${column('marketplace_id')} = $1`, `${column('mode')} = $2`];
  const add = (condition: string, value: unknown) => {
    params.push(value);
    conditions.push(`${condition} $${params.length}`);
  };
  for (const [name, value] of Object.entries(query.equals ?? {})) {
    if (value !== undefined) add(`${column(name)} =`, value);
  }
  if (query.page.startingAfter !== null) add(`${column('id')} <`, query.page.startingAfter);
  params.push(query.page.limit + 1);
  return q.query<T>(
    `${query.select} WHERE ${conditions.join(' AND ')} ORDER BY ${column('id')} DESC LIMIT $${params.length}`,
    params,
  );
}
