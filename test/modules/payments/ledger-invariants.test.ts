// The ledger.invariants job (docs/ledger.md, "Invariants"): a healthy ledger passes; a planted
// unbalanced entry, a payment off its positions and a card dispute missing its entry are each
// recorded once, counted by ledger_invariant_violations{check} on GET /metrics and logged at error.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../../src/ids.js';
import { checkLedgerInvariants } from '../../../src/modules/payments/ledger-invariants.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { paymentHelpers } from './helpers.js';

const OPERATOR_TOKEN = 'operator-token-for-ledger-tests';
let ctx: TestContext;
const h = paymentHelpers(() => ctx);
const logged: Array<{ details: Record<string, unknown>; message: string }> = [];
const log = { error: (details: object, message: string) => void logged.push({ details: details as Record<string, unknown>, message }) };

beforeAll(async () => {
  ctx = await startTestApp({ env: { OPERATOR_TOKEN } });
});
afterAll(() => ctx.close());
beforeEach(async () => {
  logged.length = 0;
  await h.setSettings({ payments_enabled: true, platform_fee: { percent_bps: 1000, fixed_amount: 30 }, release_delay_seconds: 0 });
});

async function metric(check: string): Promise<number> {
  const res = await ctx.request('/metrics', { key: OPERATOR_TOKEN });
  const line = res.text.split('\n').find((l) => l.startsWith(`ledger_invariant_violations{check="${check}"}`));
  return Number(line?.split(' ')[1] ?? NaN);
}

/** A raw line, as a bug (or a hand in the database) would write it. */
async function plant(line: { entry: string; type: string; account: string; side: string; amount: number; payment: string; source?: string }) {
  await ctx.db.query(
    `INSERT INTO ledger_lines (marketplace_id, mode, id, entry_id, type, account, side, amount, currency, source_id, payment_id, created_at)
     VALUES ($1, 'test', $2, $3, $4, $5, $6, $7, 'USD', $8, $9, now())`,
    [ctx.marketplaceId, newId('balanceTransaction'), line.entry, line.type, line.account, line.side, line.amount, line.source ?? line.payment, line.payment],
  );
}

describe('ledger.invariants', () => {
  it('finds nothing wrong in a ledger the moves wrote (incremental and full)', async () => {
    const made = await h.paid();
    await h.refund({ payment: made.payment.id, amount: 200 });
    await h.complete(made);
    await h.ok(`/v1/test_helpers/payments/${made.payment.id}/card_dispute`, {});
    const incremental = await checkLedgerInvariants(ctx.services, log, { full: false });
    expect(incremental).toMatchObject({ violations: 0, checked: { entries: 'new', payments: 1, cardDisputes: 1 } });
    expect(await checkLedgerInvariants(ctx.services, log, { full: true })).toMatchObject({ violations: 0, checked: { entries: 'all' } });
    expect(logged).toEqual([]);
    expect(await metric('entry_balances')).toBe(0);
  });

  it('counts and logs an unbalanced entry, a payment off its positions, and a card dispute without its entry', async () => {
    const made = await h.paid();
    const entry = newId('journalEntry');
    await plant({ entry, type: 'charge', account: 'buyer_funds', side: 'debit', amount: 5, payment: made.payment.id });
    await plant({ entry, type: 'charge', account: `seller:${made.seller.id}`, side: 'credit', amount: 4, payment: made.payment.id });
    const incremental = await checkLedgerInvariants(ctx.services, log, { full: false });
    expect(incremental.violations).toBe(2); // the entry, and its payment now off its targets
    expect(logged.map((l) => [l.message, l.details.subject])).toEqual([
      ['ledger invariant violated: entry_balances', entry],
      ['ledger invariant violated: payment_positions', made.payment.id],
    ]);
    expect(logged[0]!.details).toMatchObject({ check: 'entry_balances', marketplace: ctx.marketplaceId, mode: 'test', detail: 'debits − credits = 1', first_seen: true });

    // A card dispute whose `dispute` entry was never written (the row inserted behind the moves' back).
    const other = await h.paid();
    await ctx.db.query(
      `INSERT INTO card_disputes (marketplace_id, mode, id, payment_id, order_id, amount, reason, status, processor_dispute, created_at, updated_at)
       VALUES ($1, 'test', $2, $3, $4, 100, 'fraudulent', 'needs_response', 'dp_planted', now(), now())`,
      [ctx.marketplaceId, newId('cardDispute'), other.payment.id, other.order.id],
    );
    logged.length = 0;
    const full = await checkLedgerInvariants(ctx.services, log, { full: true });
    expect(full.violations).toBe(3); // found again (logged again, counted once) and the dispute
    expect(logged.map((l) => [l.details.check, l.details.first_seen])).toEqual([
      ['entry_balances', false], ['payment_positions', false], ['card_dispute_entries', true],
    ]);
    expect(await metric('entry_balances')).toBe(1);
    expect(await metric('payment_positions')).toBe(1);
    expect(await metric('card_dispute_entries')).toBe(1);
  });

  it('runs as the periodic job of the wiring, with the worker log', async () => {
    const job = ctx.services.wiring.periodic.find((j) => j.name === 'ledger.invariants');
    expect(job).toBeDefined();
    logged.length = 0;
    await job!.run(ctx.services, log, new Map());
    expect(logged.length).toBeGreaterThan(0); // its first round is a full pass: the planted faults again
  });
});
