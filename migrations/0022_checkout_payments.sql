-- A checkout's payment (docs/decisions/checkouts.md): ONE charge row for the checkout's total
-- (order_id and seller_id null, checkout_id set: the only row the processor is asked to start,
-- and the row processor reports about the payment find), and one share row per order of it
-- (order_id, seller_id, checkout_id and charge_payment_id set), which holds that order's money life
-- exactly as an order's own payment does: release, refunds, holds. A plain order's payment has
-- neither checkout_id nor charge_payment_id.
ALTER TABLE payments ALTER COLUMN order_id DROP NOT NULL;
ALTER TABLE payments ALTER COLUMN seller_id DROP NOT NULL;
ALTER TABLE payments ADD COLUMN checkout_id text;
ALTER TABLE payments ADD COLUMN charge_payment_id text;
ALTER TABLE payments ADD CONSTRAINT payments_kind_check CHECK (
  -- an order's own payment
  (order_id IS NOT NULL AND seller_id IS NOT NULL AND checkout_id IS NULL AND charge_payment_id IS NULL)
  -- a checkout's charge
  OR (order_id IS NULL AND seller_id IS NULL AND checkout_id IS NOT NULL AND charge_payment_id IS NULL)
  -- an order's share of a checkout's charge
  OR (order_id IS NOT NULL AND seller_id IS NOT NULL AND checkout_id IS NOT NULL AND charge_payment_id IS NOT NULL)
);
ALTER TABLE payments ADD CONSTRAINT payments_charge_payment_fkey
  FOREIGN KEY (marketplace_id, mode, charge_payment_id) REFERENCES payments (marketplace_id, mode, id);
-- A charge's shares, in item order (their ids are not: the position is kept by `share_index`).
ALTER TABLE payments ADD COLUMN share_index integer CHECK (share_index >= 0);
ALTER TABLE payments ADD CONSTRAINT payments_share_position_check CHECK ((charge_payment_id IS NULL) = (share_index IS NULL));
CREATE UNIQUE INDEX payments_charge_share_key ON payments (marketplace_id, mode, charge_payment_id, share_index) WHERE charge_payment_id IS NOT NULL;
-- The checkout's charge (and its shares).
CREATE INDEX payments_checkout_idx ON payments (marketplace_id, mode, checkout_id) WHERE checkout_id IS NOT NULL;
CREATE UNIQUE INDEX payments_checkout_charge_key ON payments (marketplace_id, mode, checkout_id) WHERE checkout_id IS NOT NULL AND charge_payment_id IS NULL;

-- A card dispute on a checkout's charge is about the whole charge (the card holder's): it names no
-- order. Refunds always belong to an order's payment or share, so they keep their order.
ALTER TABLE card_disputes ALTER COLUMN order_id DROP NOT NULL;

-- What a checkout's charge pays for, one item per order in item order ([{order, listing, amount}]):
-- the processor's checkout page lists them. Null for any other payment.
ALTER TABLE payments ADD COLUMN line_items jsonb;

-- A card dispute on a checkout's charge holds the releases of its shares that have not started:
-- the wanted start stays in release_due_at, and the dispute's closing schedules it again.
ALTER TABLE payments ADD COLUMN release_on_hold boolean NOT NULL DEFAULT false;

-- A refund made in the processor's dashboard on a checkout's charge is spread over its shares: one
-- refund row per share, all naming the processor's one refund (at most once per payment).
DROP INDEX refunds_processor_key;
CREATE UNIQUE INDEX refunds_processor_key ON refunds (marketplace_id, mode, processor_refund, payment_id) WHERE processor_refund IS NOT NULL;
