// POST /v1/checkouts
import type { RouteModule } from '../../contracts/wiring.js';
import { Checkout, CreateCheckoutBody, withPaymentUrl } from '../../modules/checkouts/index.js';
import { checkOut } from '../check-out.js';

export const createCheckoutRoute: RouteModule = (app) => {
  app.post(
    '/checkouts',
    {
      schema: {
        tags: ['Checkouts'],
        summary: 'Create a checkout',
        description:
          "A buyer's cart across sellers, bought at once: one order per item (`orders`, in item order), each an order like `POST /v1/orders` makes (one listing, one seller, its own fee from its category or the mode's `platform_fee`), all made or none. Every item is checked as an order is, item by item, the error's `param` naming the item: 404 `resource_missing` for an unknown buyer (`buyer`), then an unknown listing (`items[2].listing`); 409 `invalid_state` for a listing not published, then an erased buyer; 403 `self_order`, then `seller_suspended`, then (payments on) `processor_not_connected`, `seller_payouts_not_enabled`; 409 `quantity_unavailable` (`items[2].quantity`, the first item of the short listing). Items of one listing share one reservation (their quantities summed). Payments off: every order `committed` and the checkout `completed` at once (`checkout.created`, `checkout.completed`, after each order's `order.created` and `order.committed`). Payments on: every order `awaiting_payment` and the checkout too, paid by one payment for `total` (`payment`, `payment_url`, in this answer too under an `Idempotency-Key`) before `expires_at`; when it succeeds every order is committed and the checkout `completed`; when the window passes every order expires, its units return, and the checkout is `expired`. An order of a checkout awaiting payment cannot be cancelled alone. 400 for no item or more than 50. Takes `Idempotency-Key`.",
        body: CreateCheckoutBody,
        response: { 201: Checkout },
      },
      // Under an Idempotency-Key the page is made after the key's COMMIT: the answer is completed then.
      config: { completeAnswer: (request, answer) => withPaymentUrl(request.ctx, answer as Checkout) },
    },
    async (request, reply) => {
      reply.code(201);
      return checkOut(request.ctx, request.body);
    },
  );
};
