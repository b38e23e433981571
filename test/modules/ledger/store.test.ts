// The ledger's store (docs/ledger.md): entries are checked before they are written, the table is
// append-only, and the report reads stream an interval in keyset batches.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/ids.js';
import { accountBalancesAt, ledgerLinesBetween, postEntries, sellerAccount, type NewEntry } from '../../../src/modules/ledger/index.js';
import type { Scope } from '../../../src/scope.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';

let ctx: TestContext;
let scope: Scope;
const seller = newId('seller');
const at = (iso: string) => new Date(iso);

function entry(type: NewEntry['type'], lines: NewEntry['lines']): NewEntry {
  return { type, currency: 'USD', sourceId: 'pay_x', paymentId: 'pay_x', orderId: null, sellerId: seller, processorRef: null, lines };
}

beforeAll(async () => {
  ctx = await startTestApp();
  scope = { marketplaceId: ctx.marketplaceId, mode: 'test' };
});
afterAll(async () => {
  await ctx.close();
});

describe('postEntries', () => {
  it('writes a balanced entry, and refuses an unbalanced or one-line one with nothing written', async () => {
    await ctx.db.transaction((tx) =>
      postEntries(tx, scope, at('2026-01-01T00:00:00Z'), [
        entry('charge', [{ account: 'buyer_funds', amount: 1000 }, { account: sellerAccount(seller), amount: 1000 }]),
        entry('platform_fee', [{ account: 'platform_fees', amount: 100 }, { account: sellerAccount(seller), amount: -100 }]),
      ]),
    );
    const bad = entry('refund', [{ account: 'refunds_out', amount: 100 }, { account: sellerAccount(seller), amount: 100 }]);
    await expect(ctx.db.transaction((tx) => postEntries(tx, scope, at('2026-01-02T00:00:00Z'), [bad]))).rejects.toThrow(/does not balance \(off by -200\)/);
    const single = entry('refund', [{ account: 'refunds_out', amount: 100 }]);
    await expect(ctx.db.transaction((tx) => postEntries(tx, scope, at('2026-01-02T00:00:00Z'), [single]))).rejects.toThrow(/two lines or more/);
    const zero = entry('refund', [{ account: 'refunds_out', amount: 0 }, { account: sellerAccount(seller), amount: 0 }]);
    await expect(ctx.db.transaction((tx) => postEntries(tx, scope, at('2026-01-02T00:00:00Z'), [zero]))).rejects.toThrow(/non-zero integer/);
    const balances = await accountBalancesAt(ctx.db, scope, at('2027-01-01T00:00:00Z'));
    expect(balances).toEqual([
      { account: 'buyer_funds', currency: 'USD', balance: 1000 },
      { account: 'platform_fees', currency: 'USD', balance: 100 },
      { account: sellerAccount(seller), currency: 'USD', balance: 900 },
    ]);
    expect(await accountBalancesAt(ctx.db, scope, at('2026-01-01T00:00:00Z'))).toEqual([]);
  });

  it('streams an interval in keyset batches, oldest first, by account', async () => {
    const first = await ledgerLinesBetween(ctx.db, scope, { from: at('2026-01-01T00:00:00Z'), to: at('2026-01-02T00:00:00Z'), limit: 3 });
    expect(first.map((line) => line.type)).toEqual(['charge', 'charge', 'platform_fee']);
    const rest = await ledgerLinesBetween(ctx.db, scope, { from: at('2026-01-01T00:00:00Z'), to: at('2026-01-02T00:00:00Z'), limit: 3, afterId: first[2]!.id });
    expect(rest).toHaveLength(1);
    const fees = await ledgerLinesBetween(ctx.db, scope, { from: at('2026-01-01T00:00:00Z'), to: at('2026-01-02T00:00:00Z'), account: 'platform_fees', limit: 10 });
    expect(fees.map((line) => [line.amount, line.side])).toEqual([[100, 'credit']]);
  });

  it('is append-only: UPDATE and DELETE are refused by the trigger', async () => {
    await expect(ctx.db.query('UPDATE ledger_lines SET amount = 1 WHERE marketplace_id = $1', [ctx.marketplaceId])).rejects.toThrow(/append-only/);
    await expect(ctx.db.query('DELETE FROM ledger_lines WHERE marketplace_id = $1', [ctx.marketplaceId])).rejects.toThrow(/append-only/);
  });
});
