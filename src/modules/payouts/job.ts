// The payout send job (docs/payouts.md, "Processors"): the payout row and its idempotency key were
// committed with the payout; this job moves it in_transit (committed, so it can no longer be
// canceled), calls the processor with no transaction open, and records the outcome in a short
// transaction of its own. A crash anywhere is a retry with the same key: the processor answers the
// first transfer again, and recording it again changes nothing, so nobody is paid twice.
import type { JobContext, JobKind, JobOutcome } from '../../contracts/background.js';
import { ProcessorDeclined, type Provider } from '../../contracts/processor.js';
import { processorCallContext } from '../../contracts/processor-calls.js';
import type { Scope } from '../../scope.js';
import { exponentialBackoff } from '../../workers/job-kinds.js';
import { loadProcessorCredentials } from '../marketplaces/index.js';
import { findSellerPayouts } from '../sellers/index.js';
import { failPayout, movePayout, PAYOUT_SEND_JOB } from './operations.js';
import * as queries from './queries.js';

const done: JobOutcome = { status: 'succeeded' };

async function recordFailed(ctx: JobContext, scope: Scope, id: string, message: string, now: Date): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const row = await queries.lockPayout(tx, scope, id);
    if (row && (row.status === 'pending' || row.status === 'in_transit')) await failPayout(tx, scope, row, message, 'processor', now);
  });
}

export const payoutSendJob: JobKind = {
  name: PAYOUT_SEND_JOB,
  clock: 'mode',
  concurrency: 20,
  perKeyLimit: 1,
  maxAttempts: 12,
  leaseMs: 60_000,
  backoffMs: exponentialBackoff(5_000, 60 * 60 * 1000),
  async handle(job, ctx) {
    const scope: Scope = { marketplaceId: job.marketplaceId!, mode: job.mode! };
    const id = job.subjectId ?? '';
    const payout = await queries.selectPayout(ctx.db, scope, id);
    if (!payout) return { status: 'failed', error: `payout ${id} not found` };
    if (payout.status !== 'pending' && payout.status !== 'in_transit') return done; // canceled, or recorded already
    const credentials = await loadProcessorCredentials(ctx.db, ctx.config.secretKey, scope);
    if (!credentials || credentials.provider !== payout.provider) {
      const message = `The ${scope.mode} mode's processor connection is no longer ${payout.provider}; the payout cannot be made.`;
      await recordFailed(ctx, scope, id, message, ctx.now);
      return { status: 'failed', error: message };
    }
    if (payout.status === 'pending') {
      const sent = await ctx.db.transaction(async (tx) => {
        const row = await queries.lockPayout(tx, scope, id);
        if (row?.status !== 'pending') return row?.status === 'in_transit';
        await movePayout(tx, scope, row, 'send', 'platform', {}, ctx.now);
        return true;
      });
      if (!sent) return done; // canceled meanwhile
    }
    const seller = await findSellerPayouts(ctx.db, scope, payout.seller_id);
    try {
      if (!seller || seller.processor_account === null) throw new ProcessorDeclined('The seller has no account at the processor.');
      const { transfer } = await ctx.hooks.processors[payout.provider as Provider].transfer(processorCallContext(ctx, scope, credentials, ctx.signal), {
        paymentId: null,
        orderId: null,
        payoutId: payout.id,
        transferGroup: payout.id,
        amount: payout.amount,
        currency: payout.currency,
        destination: seller.processor_account,
        // Funded from the platform's available balance: a payout sums many charges (docs/payouts.md).
        sourceTransaction: null,
        destinationPayouts: seller.payouts_status,
        idempotencyKey: payout.idempotency_key,
      });
      await ctx.db.transaction(async (tx) => {
        const row = await queries.lockPayout(tx, scope, id);
        if (row?.status === 'in_transit') await movePayout(tx, scope, row, 'succeed', 'processor', { processor_reference: transfer, paid_at: ctx.now }, ctx.now);
      });
      return done;
    } catch (error) {
      if (!(error instanceof ProcessorDeclined)) throw error; // retried with the same key
      await recordFailed(ctx, scope, id, error.message, ctx.now);
      return { status: 'failed', error: error.message };
    }
  },
  async onSettled(tx, job, settled) {
    // Out of attempts (the processor could not be reached for hours): the payout fails, its amount back to available.
    if (settled.result !== 'failed' || settled.error === undefined) return;
    const scope: Scope = { marketplaceId: job.marketplaceId!, mode: job.mode! };
    const row = await queries.lockPayout(tx, scope, job.subjectId ?? '');
    if (row && (row.status === 'pending' || row.status === 'in_transit')) await failPayout(tx, scope, row, `The processor could not be reached: ${settled.error}`, 'processor', settled.at);
  },
};
