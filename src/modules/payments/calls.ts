// The processor call job (call-queue.ts): reads what the call needs, calls the processor with no
// transaction open, and records the outcome in a short transaction of its own, on the locked
// payment. Every call carries an idempotency key made of our own ids, so the retry of a call whose
// outcome was lost (a crash, a timeout, a lease that ran out) makes nothing twice: the processor
// answers the first call's result again, and recording it again changes nothing.
import type { Tx } from '../../db/db.js';
import type { Scope } from '../../scope.js';
import { exponentialBackoff } from '../../workers/job-kinds.js';
import { type Job, type JobContext, type JobKind, type JobOutcome } from '../../contracts/background.js';
import { loadProcessorCredentials } from '../marketplaces/index.js';
import { ProcessorDeclined, type CallContext } from '../../contracts/processor.js';
import { processorCallContext } from '../../contracts/processor-calls.js';
import { findSellerPayouts } from '../sellers/index.js';
import { PROCESSOR_CALL_JOB, type ProcessorCall } from './call-queue.js';
import * as moves from './moves.js';
import * as queries from './queries.js';

export { PROCESSOR_CALL_JOB };

/** Idempotency keys: stable per payment, refund or release, never reused for another amount. */
export const idempotencyKeys = {
  start: (paymentId: string) => `${paymentId}:start`,
  cancel: (paymentId: string) => `${paymentId}:cancel`,
  transfer: (paymentId: string, attempt: number) => `${paymentId}:transfer:${attempt}`,
  refund: (refundId: string) => `${refundId}:refund`,
  reversal: (refundId: string) => `${refundId}:reversal`,
};

type Outcome = JobOutcome;
const done: Outcome = { status: 'succeeded' };

function scopeOf(job: Job): Scope {
  return { marketplaceId: job.marketplaceId!, mode: job.mode! };
}

async function record(ctx: JobContext, scope: Scope, paymentId: string, write: (tx: Tx, payment: queries.PaymentRow) => Promise<unknown>): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const payment = await queries.lockPayment(tx, scope, paymentId);
    if (payment) await write(tx, payment);
  });
}

export const processorCallJob: JobKind = {
  name: PROCESSOR_CALL_JOB,
  clock: 'mode',
  concurrency: 20,
  perKeyLimit: 1,
  maxAttempts: 12,
  leaseMs: 60_000,
  backoffMs: exponentialBackoff(5_000, 60 * 60 * 1000),
  async handle(job, ctx) {
    const scope = scopeOf(job);
    const call = job.payload as ProcessorCall;
    const payment = await queries.selectPayment(ctx.db, scope, job.subjectId ?? '');
    if (!payment) return { status: 'failed', error: `payment ${job.subjectId} not found` };
    const credentials = await loadProcessorCredentials(ctx.db, ctx.config.secretKey, scope);
    if (!credentials || credentials.provider !== payment.provider) {
      const message = `The ${scope.mode} mode's processor connection is no longer ${payment.provider}; the call cannot be made.`;
      await recordGaveUp(ctx, scope, payment.id, call, message);
      return { status: 'failed', error: message };
    }
    const callCtx = processorCallContext(ctx, scope, credentials, ctx.signal);
    try {
      switch (call.call) {
        case 'start':
          return await start(ctx, scope, payment, callCtx, call);
        case 'cancel':
          await ctx.hooks.processors[payment.provider].cancelPayment(callCtx, {
            paymentIntent: payment.processor_payment_intent,
            checkoutSession: payment.processor_checkout_session,
            idempotencyKey: idempotencyKeys.cancel(payment.id),
          });
          return done;
        case 'transfer':
          return await transfer(ctx, scope, payment, callCtx);
        case 'refund':
          return await refund(ctx, scope, payment, callCtx, call.refundId);
      }
    } catch (error) {
      if (!(error instanceof ProcessorDeclined)) throw error; // retried with the same key
      await recordGaveUp(ctx, scope, payment.id, call, error.message);
      return { status: 'failed', error: error.message };
    }
  },
  async onSettled(tx, job, settled) {
    // Out of attempts (the processor could not be reached for hours): recorded as a failure of
    // what was asked, so it shows on the object and can be retried from there.
    if (settled.result !== 'failed' || settled.error === undefined) return;
    const scope = scopeOf(job);
    const payment = await queries.lockPayment(tx, scope, job.subjectId ?? '');
    if (payment) await writeGaveUp(tx, scope, payment, job.payload as ProcessorCall, `The processor could not be reached: ${settled.error}`, settled.at);
  },
};

async function recordGaveUp(ctx: JobContext, scope: Scope, paymentId: string, call: ProcessorCall, message: string): Promise<void> {
  await record(ctx, scope, paymentId, (tx, payment) => writeGaveUp(tx, scope, payment, call, message, ctx.now));
}

async function writeGaveUp(tx: Tx, scope: Scope, payment: queries.PaymentRow, call: ProcessorCall, message: string, now: Date): Promise<void> {
  switch (call.call) {
    case 'start':
      await moves.recordPaymentFailed(tx, scope, payment, message, now);
      return;
    case 'cancel':
      return; // a late payment is refunded when it is reported
    case 'transfer':
      await moves.recordReleaseFailed(tx, scope, payment, message, now);
      return;
    case 'refund': {
      const refund = await queries.lockRefund(tx, scope, call.refundId);
      if (refund && refund.status === 'pending') {
        await moves.recordRefundFailed(tx, scope, payment, refund, { status: 'failed', failureReason: message, reversalMade: refund.processor_transfer_reversal !== null, processorRefund: null }, now);
      }
    }
  }
}

async function start(ctx: JobContext, scope: Scope, payment: queries.PaymentRow, callCtx: CallContext, call: Extract<ProcessorCall, { call: 'start' }>): Promise<Outcome> {
  // Started already, or no longer due (the order ended before the call was made): nothing to start.
  if (payment.processor_payment_intent !== null || payment.processor_checkout_session !== null || payment.status !== 'awaiting_payment') return done;
  const started = await ctx.hooks.processors[payment.provider].startPayment(callCtx, {
    paymentId: payment.id,
    orderId: payment.order_id,
    checkoutId: payment.checkout_id,
    lineItems: payment.line_items,
    method: payment.method,
    amount: payment.amount,
    currency: payment.currency,
    description: call.description,
    successUrl: call.successUrl,
    cancelUrl: call.cancelUrl,
    idempotencyKey: idempotencyKeys.start(payment.id),
  });
  await record(ctx, scope, payment.id, async (tx, current) => {
    const due = current.status === 'awaiting_payment';
    await moves.changePayment(tx, scope, current, {
      processor_payment_intent: current.processor_payment_intent ?? started.paymentIntent,
      processor_checkout_session: current.processor_checkout_session ?? started.checkoutSession,
      checkout_url: due ? started.checkoutUrl : null,
      client_secret: due ? started.clientSecret : null,
    }, ctx.now);
  });
  return done;
}

async function transfer(ctx: JobContext, scope: Scope, payment: queries.PaymentRow, callCtx: CallContext): Promise<Outcome> {
  if (payment.release_status !== 'releasing') return done;
  const seller = await findSellerPayouts(ctx.db, scope, moves.orderPartOf(payment).sellerId);
  if (!seller || seller.processor_account === null) throw new ProcessorDeclined('The seller has no account at the processor.');
  const { transfer: id } = await ctx.hooks.processors[payment.provider].transfer(callCtx, {
    paymentId: payment.id,
    orderId: moves.orderPartOf(payment).orderId,
    payoutId: null,
    // A share's transfer is grouped with its checkout's charge; an order's with its order.
    transferGroup: payment.checkout_id ?? moves.orderPartOf(payment).orderId,
    // The share less what was kept for what the seller owed (never 0: such a release makes no call).
    amount: payment.release_amount - payment.release_recovered,
    currency: payment.currency,
    destination: seller.processor_account,
    sourceTransaction: payment.processor_charge,
    destinationPayouts: seller.payouts_status,
    // One key per release attempt: after a failed release, a retry asks for a new transfer.
    idempotencyKey: idempotencyKeys.transfer(payment.id, payment.release_attempts),
  });
  await record(ctx, scope, payment.id, (tx, current) => moves.recordReleased(tx, scope, current, id, ctx.now));
  return done;
}

async function refund(ctx: JobContext, scope: Scope, payment: queries.PaymentRow, callCtx: CallContext, refundId: string): Promise<Outcome> {
  const row = await queries.selectRefund(ctx.db, scope, refundId);
  if (!row || row.status !== 'pending') return done;
  const driver = ctx.hooks.processors[payment.provider];
  const reversal = row.transfer_reversal_amount ?? 0;
  let reversalId = row.processor_transfer_reversal;
  if (reversal > 0 && reversalId === null) {
    if (payment.processor_transfer === null) {
      if (payment.release_status === 'releasing') return { status: 'retry', error: 'the transfer to reverse is not made yet', delayMs: 5_000 };
      // The release failed meanwhile: nothing was sent, so there is nothing to take back.
      await record(ctx, scope, payment.id, (tx) => queries.updateRefund(tx, scope, refundId, { transfer_reversal_amount: null }, ctx.now));
    } else {
      const seller = await findSellerPayouts(ctx.db, scope, moves.orderPartOf(payment).sellerId);
      try {
        ({ reversal: reversalId } = await driver.reverseTransfer(callCtx, {
          transfer: payment.processor_transfer,
          refundId,
          amount: reversal,
          currency: payment.currency,
          destinationPayouts: seller?.payouts_status ?? 'not_started',
          idempotencyKey: idempotencyKeys.reversal(refundId),
        }));
      } catch (error) {
        if (!(error instanceof ProcessorDeclined)) throw error;
        // The seller's balance was short: the buyer is refunded all the same, and the shortfall is
        // recorded on the refund for the platform to see (never a silent loss).
        await record(ctx, scope, payment.id, async (tx, current) => {
          const locked = await queries.lockRefund(tx, scope, refundId);
          if (locked) await moves.recordReversalShortfall(tx, scope, current, locked, error.message, ctx.now);
        });
      }
      const made = reversalId;
      if (made !== null) await record(ctx, scope, payment.id, (tx, current) => moves.recordReversalMade(tx, scope, current, refundId, made, ctx.now));
    }
  }
  const result = await driver.refund(callCtx, {
    paymentId: payment.id,
    refundId,
    paymentIntent: payment.processor_payment_intent,
    charge: payment.processor_charge,
    amount: row.amount,
    currency: payment.currency,
    reason: row.reason,
    idempotencyKey: idempotencyKeys.refund(refundId),
  });
  await record(ctx, scope, payment.id, async (tx, current) => {
    const locked = await queries.lockRefund(tx, scope, refundId);
    if (!locked) return;
    if (result.status === 'succeeded') {
      await moves.recordRefundSucceeded(tx, scope, current, locked, { processor_refund: result.refund, processor_transfer_reversal: locked.processor_transfer_reversal }, ctx.now);
    } else if (result.status === 'failed' || result.status === 'canceled') {
      await moves.recordRefundFailed(tx, scope, current, locked, { status: result.status, failureReason: result.failureReason, reversalMade: locked.processor_transfer_reversal !== null, processorRefund: result.refund }, ctx.now);
    } else if (locked.processor_refund === null) {
      // Pending at the processor: its report settles it (refund_updated).
      await queries.updateRefund(tx, scope, refundId, { processor_refund: result.refund }, ctx.now);
    }
  });
  return done;
}
