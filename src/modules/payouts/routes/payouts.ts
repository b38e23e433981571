// GET /v1/payouts, GET /v1/payouts/{id}, GET /v1/payouts/{id}/lines, POST /v1/payouts/{id}/cancel
// (POST /v1/payouts is a flow's: src/flows/routes/pay-out.ts).
import type { RouteModule } from '../../../contracts/wiring.js';
import { EmptyBody, IdParams } from '../../../http/schemas.js';
import { cancelPayout, listPayoutLines, listPayouts, retrievePayout } from '../operations.js';
import { ListPayoutLinesQuery, ListPayoutsQuery, Payout, PayoutLineList, PayoutList } from '../schemas.js';

export const payoutRoutes: RouteModule = (app) => {
  app.get(
    '/payouts',
    {
      schema: {
        tags: ['Payouts'],
        summary: 'List payouts',
        description: 'Newest first; filters `seller`, `status`, `created[gte|gt|lte|lt]` (ISO 8601 or unix seconds), cursor paging.',
        querystring: ListPayoutsQuery,
        response: { 200: PayoutList },
      },
    },
    async (request) => listPayouts(request.ctx, request.query),
  );
  app.get(
    '/payouts/:id',
    { schema: { tags: ['Payouts'], summary: 'Retrieve a payout', params: IdParams, response: { 200: Payout } } },
    async (request) => retrievePayout(request.ctx, request.params.id),
  );
  app.get(
    '/payouts/:id/lines',
    {
      schema: {
        tags: ['Payouts'],
        summary: "List a payout's lines",
        description:
          "The ledger lines of the seller's available account the payout pays, oldest first (each order share, refund, fee, recovery, returned payout), each naming its balance transaction; they sum to the payout's amount. `starting_after` is a line's `balance_transaction`. 404 for an unknown payout.",
        params: IdParams,
        querystring: ListPayoutLinesQuery,
        response: { 200: PayoutLineList },
      },
    },
    async (request) => listPayoutLines(request.ctx, request.params.id, request.query),
  );
  app.post(
    '/payouts/:id/cancel',
    {
      schema: {
        tags: ['Payouts'],
        summary: 'Cancel a payout',
        description:
          "Only while `pending` (the processor not called yet): `canceled`, `payout.canceled`, and its amount back in the seller's available balance (a `payout_cancellation` entry), paid by a later payout. 409 `invalid_state` once in transit, paid, failed or canceled; 404 for an unknown payout.",
        params: IdParams,
        body: EmptyBody,
        response: { 200: Payout },
      },
    },
    async (request) => cancelPayout(request.ctx, request.params.id),
  );
};
