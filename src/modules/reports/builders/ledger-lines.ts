// The ledger lines of an interval, read in keyset pages through the ledger module (never all at
// once): each page is one short statement, no transaction is held between them.
import type { Queryable } from '../../../db/db.js';
import type { Scope } from '../../../scope.js';
import { ledgerLinesBetween, type LedgerLineRow } from '../../ledger/index.js';

export const LEDGER_PAGE = 1_000;

export interface LinesQuery {
  from: Date;
  to: Date;
  account?: string;
}

/** Pages of the interval's lines, oldest first (by id). */
export async function* ledgerPages(q: Queryable, scope: Scope, query: LinesQuery): AsyncGenerator<LedgerLineRow[]> {
  let afterId: string | undefined;
  for (;;) {
    const page = await ledgerLinesBetween(q, scope, { ...query, ...(afterId === undefined ? {} : { afterId }), limit: LEDGER_PAGE });
    if (page.length > 0) yield page.map((line) => ({ ...line, amount: Number(line.amount) }));
    if (page.length < LEDGER_PAGE) return;
    afterId = page[page.length - 1]!.id;
  }
}

/** The UTC day of a moment, YYYY-MM-DD. */
export const dayOf = (at: Date | string) => new Date(at).toISOString().slice(0, 10);
export const iso = (at: Date | string) => new Date(at).toISOString();
