// The card dispute machine's table (src/modules/payments/card-dispute-machine.ts) is what the
// processor's reports do to a card dispute: each reported change of status takes the row of its
// phases (open or closed), emits that row's events, and every row of the table is taken; a report
// that changes nothing takes none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProcessorReport } from '../../../src/contracts/processor.js';
import { rowOf } from '../../../src/domain/state-machine.js';
import { CARD_DISPUTE_MACHINE, cardDisputeMove, cardDisputePhase } from '../../../src/modules/payments/card-dispute-machine.js';
import { receiveProcessorReports } from '../../../src/flows/receive-processor-reports.js';
import type { Json } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { paymentHelpers } from './helpers.js';

let ctx: TestContext;
const h = paymentHelpers(() => ctx);
beforeAll(async () => {
  ctx = await startTestApp();
  await h.setSettings({ payments_enabled: true });
});
afterAll(() => ctx.close());

describe('the card dispute machine', () => {
  it('holds the moves the processor reports make, and only those', async () => {
    const made = await h.paid({}, { price: { amount: 4500, currency: 'USD' } });
    const dispute: Json = await h.ok(`/v1/test_helpers/payments/${made.payment.id}/card_dispute`, {});
    expect(dispute.status).toBe('needs_response');
    let sequence = 0;
    const report = async (status: string, amount = dispute.amount) => {
      const change: ProcessorReport = {
        type: 'card_dispute', dispute: dispute.processor.dispute, charge: made.payment.processor.charge, paymentIntent: made.payment.processor.payment_intent,
        amount, reason: dispute.reason, status, evidenceDueBy: null,
      };
      await receiveProcessorReports(ctx.services, { marketplaceId: ctx.marketplaceId, mode: 'test' }, { provider: 'simulated', eventId: `evt_card_machine_${++sequence}` }, [change]);
    };
    const eventsSoFar = async () =>
      (await ctx.db.query<{ type: string }>("SELECT type FROM events WHERE object_id = $1 AND type LIKE 'card_dispute.%' ORDER BY id", [dispute.id])).map((e) => e.type);

    const taken = new Set<string>();
    let before = 'needs_response';
    // A change of amount in the open phase, to under_review, closed (lost), amended, reported open again.
    for (const [status, amount] of [['needs_response', 4000], ['under_review', 4000], ['lost', 4000], ['lost', 3000], ['needs_response', 3000]] as const) {
      const events = (await eventsSoFar()).length;
      await report(status, amount);
      const read = await h.get(`/v1/card_disputes/${dispute.id}`);
      expect(read.status).toBe(status);
      const row = cardDisputeMove(before, status);
      expect(rowOf(CARD_DISPUTE_MACHINE, cardDisputePhase(before), row.operation)?.to).toBe(cardDisputePhase(status));
      expect((await eventsSoFar()).slice(events)).toEqual(row.emits);
      taken.add(`${cardDisputePhase(before)} ${row.operation} ${row.to}`);
      before = status;
    }
    expect([...taken].sort()).toEqual(CARD_DISPUTE_MACHINE.rows.flatMap((row) => row.from.map((from) => `${from} ${row.operation} ${row.to}`)).sort());

    // The same report again changes nothing: no row, no event.
    const events = (await eventsSoFar()).length;
    await report('needs_response', 3000);
    expect((await eventsSoFar()).length).toBe(events);
  });

  it('names the closed statuses as the closed phase', () => {
    expect(['won', 'lost', 'warning_closed', 'charge_refunded'].map(cardDisputePhase)).toEqual(['closed', 'closed', 'closed', 'closed']);
    expect(['needs_response', 'under_review', 'warning_needs_response', 'warning_under_review'].map(cardDisputePhase)).toEqual(['open', 'open', 'open', 'open']);
  });
});
