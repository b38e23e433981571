-- A processor's success report whose amount or currency is not the payment's is recorded here and
-- not applied (docs/payments.md): {amount, currency, reported_at} of the last such report; null
-- while every report agreed. The payment stays as it was, and the dashboard flags it.
ALTER TABLE payments ADD COLUMN amount_mismatch jsonb;
