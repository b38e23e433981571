// The reading behind the cross-tenant join rule (test/architecture/tenant-joins.ts), on fixture
// statements: what it finds and what it lets pass. The rule itself runs over src/ in
// test/db/distribution.test.ts, where the catalog says which tables are tenant tables.
import { describe, expect, it } from 'vitest';
import { crossTenantJoins, tenantJoins } from './tenant-joins.js';

const TENANT = new Set(['orders', 'listings', 'payments', 'media', 'webhook_deliveries']);
const KNOWN = new Set([...TENANT, 'marketplace_modes', 'marketplaces']);
const joins = (sql: string) => crossTenantJoins(sql, TENANT, KNOWN);
/** The related pairs, each with what it misses: a passing statement must still be seen to relate its tables. */
const pairs = (sql: string) => tenantJoins(sql, TENANT, KNOWN).map((join) => `${join.pair}: ${join.missing.join(', ') || 'matched'}`);

describe('cross-tenant joins', () => {
  it('finds a join of two tenant tables that misses either column of the tenant key', () => {
    expect(joins('SELECT * FROM orders o JOIN listings l ON l.id = o.listing_id WHERE o.marketplace_id = $1 AND o.mode = $2')).toEqual([
      'orders o and listings l are joined without matching marketplace_id and mode',
    ]);
    expect(joins('SELECT * FROM orders o JOIN listings l ON l.marketplace_id = o.marketplace_id AND l.id = o.listing_id')).toEqual([
      'orders o and listings l are joined without matching mode',
    ]);
    expect(joins('SELECT * FROM orders JOIN listings USING (marketplace_id, id)')).toEqual(['orders and listings are joined without matching mode']);
  });

  it('finds it in a FROM list, an UPDATE … FROM, a DELETE … USING and a correlated subquery', () => {
    expect(joins('SELECT 1 FROM orders o, listings l WHERE l.id = o.listing_id AND l.mode = o.mode')).toEqual([
      'orders o and listings l are joined without matching marketplace_id',
    ]);
    expect(joins('UPDATE listings l SET status = $3 FROM orders o WHERE l.id = o.listing_id AND l.marketplace_id = $1 AND l.mode = $2')).toEqual([
      'listings l and orders o are joined without matching marketplace_id and mode',
    ]);
    expect(joins('DELETE FROM media m USING listings l WHERE m.listing_id = l.id')).toEqual(['media m and listings l are joined without matching marketplace_id and mode']);
    expect(joins('SELECT * FROM orders o WHERE EXISTS (SELECT 1 FROM payments p WHERE p.order_id = o.id)')).toEqual([
      'orders o and payments p are joined without matching marketplace_id and mode',
    ]);
    // The same table twice under two aliases, in a subquery of its own.
    expect(
      joins(`SELECT 1 FROM webhook_deliveries d WHERE d.marketplace_id = $1 AND d.mode = $2 AND NOT EXISTS (
               SELECT 1 FROM webhook_deliveries o WHERE o.endpoint_id = d.endpoint_id AND o.id < d.id)`),
    ).toEqual(['webhook_deliveries d and webhook_deliveries o are joined without matching marketplace_id and mode']);
  });

  it('lets pass a join on both columns: directly, by row values, through a shared parameter or a third table', () => {
    expect(pairs('SELECT * FROM orders o JOIN listings l ON l.marketplace_id = o.marketplace_id AND l.mode = o.mode AND l.id = o.listing_id')).toEqual([
      'orders o and listings l: matched',
    ]);
    expect(pairs('SELECT * FROM orders o, listings l WHERE (l.marketplace_id, l.mode, l.id) = (o.marketplace_id, o.mode, o.listing_id)')).toEqual([
      'orders o and listings l: matched',
    ]);
    expect(pairs('SELECT * FROM orders o, listings l WHERE o.status = $3 AND (l.marketplace_id, l.mode) = ($1, $2) AND l.id = o.listing_id AND (o.marketplace_id, o.mode) = ($1, $2)')).toEqual([
      'orders o and listings l: matched',
    ]);
    expect(
      pairs('SELECT * FROM orders o JOIN listings l ON l.id = o.listing_id WHERE o.marketplace_id = $1 AND o.mode = $2 AND l.marketplace_id = $1 AND l.mode = $2::text'),
    ).toEqual(['orders o and listings l: matched']);
    expect(
      pairs(`SELECT * FROM marketplace_modes mm
               JOIN orders o ON o.marketplace_id = mm.marketplace_id AND o.mode = mm.mode
               JOIN listings l ON l.marketplace_id = mm.marketplace_id AND l.mode = mm.mode AND l.id = o.listing_id`),
    ).toEqual(['orders o and listings l: matched']);
    expect(pairs('SELECT * FROM orders JOIN listings USING (marketplace_id, mode, id)')).toEqual(['orders and listings: matched']);
    expect(pairs('SELECT * FROM orders o WHERE EXISTS (SELECT 1 FROM payments WHERE order_id = o.id AND marketplace_id = o.marketplace_id AND mode = o.mode)')).toEqual([
      'orders o and payments: matched',
    ]);
  });

  it('checks no join with a table that is not a tenant table, a CTE, or tables no equality relates', () => {
    expect(pairs('SELECT * FROM marketplaces m JOIN marketplace_modes mm ON mm.marketplace_id = m.id AND mm.mode = $2')).toEqual([]);
    expect(pairs('WITH picked AS (SELECT listing_id FROM orders WHERE marketplace_id = $1 AND mode = $2) SELECT * FROM picked JOIN listings l ON l.id = picked.listing_id')).toEqual([]);
    expect(pairs('SELECT (SELECT count(*) FROM orders WHERE status = $1), (SELECT count(*) FROM listings WHERE status = $2)')).toEqual([]);
  });

  it('reads no SET assignment, string, comment or expression as an equality', () => {
    expect(pairs('UPDATE listings l SET seller_id = o.seller_id FROM orders o WHERE o.marketplace_id = l.marketplace_id AND o.mode = l.mode AND o.listing_id = l.id')).toEqual([
      'listings l and orders o: matched',
    ]);
    // An assignment relates nothing: without the WHERE, no pair is seen.
    expect(pairs('UPDATE listings l SET seller_id = o.seller_id FROM orders o')).toEqual([]);
    expect(pairs("SELECT 'l.id = o.id' FROM orders o, listings l -- WHERE l.id = o.listing_id")).toEqual([]);
    expect(pairs('SELECT 1 FROM orders o, listings l WHERE l.quantity + 1 = o.quantity')).toEqual([]);
  });
});
