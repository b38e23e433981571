// POST /v1/orders
import type { RouteModule } from '../../contracts/wiring.js';
import { CreateOrderBody, Order } from '../../modules/orders/index.js';
import { placeOrder } from '../place-order.js';

export const createOrderRoute: RouteModule = (app) => {
  app.post(
    '/orders',
    {
      schema: {
        tags: ['Orders'],
        summary: 'Create an order',
        description:
          "The buyer commits to buy and the units are reserved at once; the amounts are fixed now (`fee_amount` = round_half_up(subtotal × percent_bps / 10000) + fixed_amount, from the listing's category fee, else the mode's `platform_fee`). Payments off: `committed` (`order.created`, `order.committed`), with the claim window as `deadline`. Payments on: `awaiting_payment`, with the payment window. Refusals in this order, the first that applies answering: 404 `resource_missing` for an unknown buyer, then an unknown listing; 409 `invalid_state` for a listing not published, then an erased buyer; 403 `self_order`, then `seller_suspended`, then (payments on) `processor_not_connected` when the mode has no processor connection, then `seller_payouts_not_enabled` when the seller has not finished onboarding; 409 `quantity_unavailable`. A listing that sells time (unit_type day or time) is ordered with a `booking` {start, end, seats} instead of a quantity: its time is reserved at once, `quantity` = its nights or slots × seats, `total` from the price per night or slot, and after the 403s the booking's refusals take the last place: 400 `invalid_booking` naming the field (`booking`, `booking.start`, `booking.end`, `booking.seats`, `quantity`), then 409 `outside_availability` (not offered), then 409 `time_unavailable` (taken). docs/bookings.md. `success_url` and `cancel_url` must be http:// or https:// URLs (any other scheme, such as javascript:, data: or ftp:, answers 400 naming the field). Takes `Idempotency-Key`.",
        body: CreateOrderBody,
        response: { 201: Order },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return placeOrder(request.ctx, request.body);
    },
  );
};
