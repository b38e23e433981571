// What an operator does to an order from its page, through the same /v1 operations a platform's
// server calls, each behind a confirmation dialog: refund all or part (POST /v1/refunds), cancel
// (POST /v1/orders/{id}/cancel), decide its open dispute (POST /v1/disputes/{id}/decide). The
// payment link is shown with a copy button while the order awaits payment: the service sends
// buyers nothing itself, so "resending" it is the platform's (docs/dashboard.md, "The order page").
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { api, ApiFailure, call } from '../api/client';
import { CopyButton, ErrorNotice, Field, formatMoney, Select } from '../ui/components';
import { useAction } from '../ui/hooks';

interface PaymentObject {
  id: string;
  status: string;
  amount: number;
  amount_refunded: number;
  currency: string;
  checkout_url: string | null;
}

interface DisputeObject {
  id: string;
  status: string;
}

export interface ActionableOrder {
  id: string;
  state: string;
  total: number;
  currency: string;
  payment: string | PaymentObject | null;
  checkout: string | { id: string; payment_url: string | null; status: string } | null;
  dispute: string | DisputeObject | null;
}

const object = <T,>(field: string | T | null): T | null => (field !== null && typeof field === 'object' ? field : null);

/** Digits of the currency's minor unit (2 for USD, 0 for JPY). */
function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** A button opening a modal form; the form's submit closes it when `onSubmit` answers true. */
function FormDialog({ label, title, submitLabel, danger, busy, error, onSubmit, children }: { label: string; title: string; submitLabel: string; danger?: boolean; busy: boolean; error: Parameters<typeof ErrorNotice>[0]['error']; onSubmit: () => Promise<boolean>; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await onSubmit()) ref.current?.close();
  };
  return (
    <>
      <button type="button" className={`button ${danger ? 'button-danger' : ''}`} onClick={() => ref.current?.showModal()}>
        {label}
      </button>
      <dialog ref={ref} className="dialog" aria-labelledby={titleId}>
        <form className="form" onSubmit={submit}>
          <h2 id={titleId}>{title}</h2>
          <ErrorNotice error={error} />
          {children}
          <div className="actions">
            <button type="button" className="button" onClick={() => ref.current?.close()}>
              Cancel
            </button>
            <button type="submit" className={`button ${danger ? 'button-danger' : 'button-primary'}`} disabled={busy}>
              {submitLabel}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}

function RefundDialog({ order, payment, onDone }: { order: ActionableOrder; payment: PaymentObject; onDone: () => void }) {
  const digits = minorDigits(payment.currency);
  const remaining = payment.amount - payment.amount_refunded;
  const [amount, setAmount] = useState((remaining / 10 ** digits).toFixed(digits));
  const [reason, setReason] = useState('requested_by_customer');
  const action = useAction();
  const submit = async () => {
    const minor = Math.round(Number(amount) * 10 ** digits);
    if (!Number.isFinite(minor) || minor < 1) {
      action.setError(new ApiFailure(400, { code: 'invalid_request', message: 'Enter an amount above zero.', param: 'amount' }));
      return false;
    }
    const body = { order: order.id, amount: minor, reason: reason as 'requested_by_customer' };
    const refund = await action.run(() => call(api.POST('/v1/refunds', { body })));
    if (refund) onDone();
    return refund !== undefined;
  };
  return (
    <FormDialog label="Refund" title={`Refund this order (up to ${formatMoney(remaining, payment.currency)})`} submitLabel="Refund" danger busy={action.busy} error={action.error} onSubmit={submit}>
      <Field label={`Amount (${payment.currency})`} name="amount" type="number" value={amount} onChange={setAmount} required error={action.error} hint="All that is not refunded yet, or less for a partial refund." />
      <Select label="Reason" name="reason" value={reason} onChange={setReason} options={[['requested_by_customer', 'Requested by the customer'], ['duplicate', 'Duplicate'], ['fraudulent', 'Fraudulent']]} />
    </FormDialog>
  );
}

function CancelDialog({ order, onDone }: { order: ActionableOrder; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const action = useAction();
  const submit = async () => {
    const done = await action.run(() => call(api.POST('/v1/orders/{id}/cancel', { params: { path: { id: order.id } }, body: reason.trim() ? { reason: reason.trim() } : {} })));
    if (done) onDone();
    return done !== undefined;
  };
  return (
    <FormDialog label="Cancel order" title="Cancel this order?" submitLabel="Cancel order" danger busy={action.busy} error={action.error} onSubmit={submit}>
      <p>The platform cancels the order (<code>order.cancelled</code>); its units go back to the listing unless it was claimed. A paid order is not refunded by cancelling: refund it too.</p>
      <Field label="Reason (optional)" name="reason" value={reason} onChange={setReason} error={action.error} />
    </FormDialog>
  );
}

function DecideDialog({ dispute, onDone }: { dispute: DisputeObject; onDone: () => void }) {
  const [outcome, setOutcome] = useState('buyer');
  const [note, setNote] = useState('');
  const action = useAction();
  const submit = async () => {
    const body = { outcome: outcome as 'buyer', ...(note.trim() ? { note: note.trim() } : {}) };
    const done = await action.run(() => call(api.POST('/v1/disputes/{id}/decide', { params: { path: { id: dispute.id } }, body })));
    if (done) onDone();
    return done !== undefined;
  };
  return (
    <FormDialog label="Decide dispute" title="Decide the dispute" submitLabel="Decide" busy={action.busy} error={action.error} onSubmit={submit}>
      <p>For the buyer: the order is cancelled and what is not refunded yet is refunded. For the seller: the order completes and the release goes on. This cannot be undone.</p>
      <Select label="Decide for" name="outcome" value={outcome} onChange={setOutcome} options={[['buyer', 'The buyer'], ['seller', 'The seller']]} />
      <Field label="Note (optional)" name="note" value={note} onChange={setNote} error={action.error} multiline />
    </FormDialog>
  );
}

const CANCELLABLE = ['awaiting_payment', 'committed', 'claimed'];

/** The order's actions that apply to its state: refund, cancel, decide its dispute. */
export function OrderActions({ order, onDone }: { order: ActionableOrder; onDone: () => void }) {
  const payment = object<PaymentObject>(order.payment);
  const dispute = object<DisputeObject>(order.dispute);
  const checkout = order.checkout !== null;
  return (
    <>
      {payment && payment.status === 'succeeded' && payment.amount > payment.amount_refunded && <RefundDialog order={order} payment={payment} onDone={onDone} />}
      {CANCELLABLE.includes(order.state) && !(checkout && order.state === 'awaiting_payment') && <CancelDialog order={order} onDone={onDone} />}
      {dispute && dispute.status === 'open' && <DecideDialog dispute={dispute} onDone={onDone} />}
    </>
  );
}

/** While the order awaits payment: the page where the buyer pays, to copy and send again. */
export function PaymentLink({ order }: { order: ActionableOrder }) {
  if (order.state !== 'awaiting_payment') return null;
  const checkout = object<{ id: string; payment_url: string | null; status: string }>(order.checkout);
  const url = checkout ? checkout.payment_url : (object<PaymentObject>(order.payment)?.checkout_url ?? null);
  if (!url) return null;
  return (
    <section className="card" aria-label="Payment link">
      <h2>Payment link</h2>
      <p className="muted">The buyer pays on this page{checkout ? ' (the checkout’s, for all its orders)' : ''}. The service emails buyers nothing: send it to them again from your platform.</p>
      <div className="payment-link">
        <code data-payment-url>{url}</code>
        <CopyButton text={url} label="Copy link" />
      </div>
    </section>
  );
}
