// The ledger bench's data (bench/ledger.ts): about a million ledger lines written by SQL straight
// into ledger_lines (INSERT … SELECT over generate_series; the append-only trigger refuses only
// UPDATE and DELETE, so it stays as it is). The entries are the ones the service writes for an
// order's life (docs/ledger.md), balanced, with the amounts an order's sync would post:
//
// - ORDERS orders over the given sellers, skewed (seller i of n has the share of
//   floor(n · u³) = i: the first seller holds about 8 % of the orders, the last few almost none);
// - created over 395 days before `now`, growing linearly (the last months hold twice the first
//   ones' orders), so the last full calendar month holds about 100,000 lines;
// - each order: `charge` and `platform_fee` (10 %) at its creation; `transfer` of what the seller
//   is owed 7–14 days later (when that is before `now`); 8 % refunded (half in full, half by half)
//   1–20 days after creation: `refund` and `platform_fee_refund`, and `transfer_reversal` when the
//   transfer was made before; 0.5 % (of those not refunded) disputed 10–40 days after creation:
//   `dispute`, then 30 days later `dispute_lost` (60 %) or `dispute_won`.
//
// Line ids are `btx_` + the ULID time of the line's created_at + a position digit (the entry's
// place in its sync, then the line's) + 14 hex digits of md5 (hex digits are Crockford digits), so
// ids sort by creation as the service's do, and both lines of an entry share its created_at.
import type pg from 'pg';

/** Orders seeded: 160,000 orders make about 1,010,000 lines with the proportions above. */
export const ORDERS = 160_000;
const SPAN_DAYS = 395;

// The ULID time part (10 Crockford base32 digits of the milliseconds), as src/ids.ts writes it.
const DIGIT = (shift: number) => `substr('0123456789abcdefghjkmnpqrstvwxyz', ((m >> ${shift}) & 31)::int + 1, 1)`;
const ULID_TIME = [
  `CREATE FUNCTION pg_temp.ulid_ms(m bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT ${[45, 40, 35, 30, 25, 20, 15, 10, 5, 0].map(DIGIT).join(' || ')} $$`,
  'CREATE FUNCTION pg_temp.ulid_time(t timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT pg_temp.ulid_ms(floor(extract(epoch FROM t) * 1000)::bigint) $$',
];

const SEED = `
WITH o AS MATERIALIZED (
  SELECT n,
         ($2::text[])[1 + floor(array_length($2::text[], 1) * power(random(), 3))::int] AS seller,
         $1::timestamptz - interval '${SPAN_DAYS} days' * (1 - (sqrt(1 + 3 * random()) - 1)) AS t0,
         500 + floor(power(random(), 2) * 49500)::bigint AS a,
         random() < 0.08 AS refunded, random() < 0.5 AS full_refund,
         interval '1 day' * (1 + 19 * random()) AS refund_after,
         interval '1 day' * (7 + 7 * random()) AS release_after,
         random() < 0.005 AS disputed, interval '1 day' * (10 + 30 * random()) AS dispute_after,
         random() < 0.6 AS lost
    FROM generate_series(1, ${ORDERS}) n
), p AS MATERIALIZED (
  SELECT o.*, date_trunc('milliseconds', t0) AS at0,
         pg_temp.ulid_time(t0) AS t0_ulid,
         round(a * 0.1)::bigint AS f,
         CASE WHEN full_refund THEN a ELSE a / 2 END AS r,
         date_trunc('milliseconds', t0 + refund_after) AS at_refund,
         date_trunc('milliseconds', t0 + release_after) AS at_release,
         date_trunc('milliseconds', t0 + dispute_after) AS at_dispute,
         date_trunc('milliseconds', t0 + dispute_after + interval '30 days') AS at_outcome,
         refunded AND t0 + refund_after < $1 AS refund_made,
         t0 + release_after < $1 AS released,
         disputed AND NOT refunded AND t0 + dispute_after < $1 AS dispute_made,
         disputed AND NOT refunded AND t0 + dispute_after + interval '30 days' < $1 AS dispute_closed
    FROM o
), q AS (
  SELECT p.*, round(f::numeric * r / a)::bigint AS fr,
         'ord_' || t0_ulid || substr(md5('ord' || n), 1, 16) AS order_id,
         'pay_' || t0_ulid || substr(md5('pay' || n), 1, 16) AS payment_id,
         CASE WHEN refund_made THEN 'ref_' || pg_temp.ulid_time(at_refund) || substr(md5('ref' || n), 1, 16) END AS refund_id,
         CASE WHEN dispute_made THEN 'cdp_' || pg_temp.ulid_time(at_dispute) || substr(md5('cdp' || n), 1, 16) END AS dispute_id,
         refund_made AND (NOT released OR at_refund < at_release) AS refund_before_release,
         refund_made AND released AND at_refund >= at_release AS refund_after_release
    FROM p
), e AS MATERIALIZED (
  SELECT q.order_id, q.payment_id, q.seller, x.*, pg_temp.ulid_time(x.created_at) AS at_ulid
    FROM q, LATERAL (VALUES
      (0, 'charge', 'buyer_funds', a, 'seller:' || seller, a, at0, payment_id, 'ch_' || substr(md5('ch' || n), 1, 24), true),
      (1, 'platform_fee', 'platform_fees', f, 'seller:' || seller, -f, at0, payment_id, 'ch_' || substr(md5('ch' || n), 1, 24), true),
      (2, 'refund', 'refunds_out', r, 'seller:' || seller, -r, at_refund, refund_id, 're_' || substr(md5('re' || n), 1, 24), refund_made),
      (3, 'platform_fee_refund', 'platform_fees', -fr, 'seller:' || seller, fr, at_refund, refund_id, 're_' || substr(md5('re' || n), 1, 24), refund_made AND fr > 0),
      (4, 'transfer', 'transfers_out', a - f - CASE WHEN refund_before_release THEN r - fr ELSE 0 END, 'seller:' || seller,
          -(a - f - CASE WHEN refund_before_release THEN r - fr ELSE 0 END), at_release, payment_id, 'tr_' || substr(md5('tr' || n), 1, 24),
          released AND a - f - CASE WHEN refund_before_release THEN r - fr ELSE 0 END > 0),
      (5, 'transfer_reversal', 'transfers_out', -(r - fr), 'seller:' || seller, r - fr, at_refund, refund_id, 'trr_' || substr(md5('trr' || n), 1, 24),
          refund_after_release AND r - fr > 0),
      (6, 'dispute', 'buyer_funds', -a, 'disputes', a, at_dispute, dispute_id, 'dp_' || substr(md5('dp' || n), 1, 24), dispute_made),
      (7, CASE WHEN lost THEN 'dispute_lost' ELSE 'dispute_won' END, 'disputes', -a, CASE WHEN lost THEN 'platform_losses' ELSE 'buyer_funds' END, a,
          at_outcome, dispute_id, 'dp_' || substr(md5('dp' || n), 1, 24), dispute_closed)
    ) AS x(place, type, account1, amount1, account2, amount2, created_at, source_id, processor_ref, made)
   WHERE x.made
)
INSERT INTO ledger_lines (marketplace_id, mode, id, entry_id, type, account, side, amount, currency, source_id, payment_id, order_id, seller_id, processor_ref, created_at)
SELECT $3, 'test',
       'btx_' || e.at_ulid || e.place || l.line || substr(md5(e.payment_id || e.place || l.line), 1, 14),
       'jrn_' || e.at_ulid || e.place || substr(md5(e.payment_id || e.place), 1, 15),
       e.type, l.account, CASE WHEN l.account IN ('buyer_funds', 'disputes', 'platform_losses') THEN 'debit' ELSE 'credit' END,
       l.amount, 'USD', e.source_id, e.payment_id, e.order_id, e.seller, e.processor_ref, e.created_at
  FROM e, LATERAL (VALUES (0, e.account1, e.amount1), (1, e.account2, e.amount2)) AS l(line, account, amount)
 ORDER BY 3`;

/**
 * Writes the lines for marketplace `marketplaceId` (mode test), then VACUUM ANALYZE (statistics, and
 * the visibility map autovacuum keeps for an insert-only table, which index-only scans need);
 * returns the number of lines.
 */
export async function seedLedger(client: pg.Client, marketplaceId: string, sellerIds: readonly string[], now: Date): Promise<number> {
  await client.query('SELECT setseed(0.25)');
  for (const statement of ULID_TIME) await client.query(statement);
  const result = await client.query(SEED, [now, sellerIds, marketplaceId]);
  await client.query('VACUUM ANALYZE ledger_lines');
  return result.rowCount ?? 0;
}
