// POST /v1/payouts (pay-out.ts).
import type { RouteModule } from '../../contracts/wiring.js';
import { CreatePayoutBody, Payout } from '../../modules/payouts/index.js';
import { payOutNow } from '../pay-out.js';

export const createPayoutRoute: RouteModule = (app) => {
  app.post(
    '/payouts',
    {
      schema: {
        tags: ['Payouts'],
        summary: 'Pay a seller now',
        description:
          "Pays the seller's whole available balance in one payout now, whatever their schedule (the way a `manual` schedule is paid; a schedule's `minimum` applies to its runs, not here). " +
          'Answers the payout `pending` (`payout.created`); a background job then calls the processor (`in_transit`, then `paid` or `failed`). ' +
          "404 `resource_missing` (`param: seller`); 403 `processor_not_connected`; 403 `seller_payouts_not_enabled` (`param: seller`); 409 `payout_nothing_available` (`param: seller`) when the available balance is 0 or less. Takes `Idempotency-Key`.",
        body: CreatePayoutBody,
        response: { 201: Payout },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return payOutNow(request.ctx, request.body.seller);
    },
  );
};
