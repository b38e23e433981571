// GET /v1/refunds, POST /v1/refunds, GET /v1/refunds/{id}, PATCH /v1/refunds/{id}
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { createRefund, listRefunds, retrieveRefund, updateRefundMetadata } from '../operations.js';
import { CreateRefundBody, ListRefundsQuery, MetadataBody, Refund, RefundList } from '../schemas.js';

export const refundRoutes: RouteModule = (app) => {
  app.get(
    '/refunds',
    { config: { expand: 'refund' }, schema: { tags: ['Refunds'], summary: 'List refunds', description: "Newest first, filtered by `payment` (a checkout's charge: the refunds of its orders' shares) and `order`.", querystring: ListRefundsQuery, response: { 200: RefundList } } },
    async (request) => listRefunds(request.ctx, request.query),
  );
  app.post(
    '/refunds',
    {
      schema: {
        tags: ['Refunds'],
        summary: 'Refund a payment',
        description:
          'Recorded at once as `pending` (`refund.created`), then made at the processor: `refund.updated` on each status change and `payment.refunded` when it succeeds. Before release the seller\'s planned share drops to subtotal − round_half_up(subtotal × refunded / amount); after release the difference is taken back from the transfer (`transfer_reversal`), before the buyer is refunded. An order of a checkout (`order`, or its share as `payment`) is refunded alone, from its own share of the checkout\'s charge. `payment` naming a checkout\'s charge refunds across its orders\' shares in item order, each within what is left of it (`amount` omitted: everything left), one refund per share touched; the answer is the first of them. Refusals in this order: 400 neither `payment` nor `order`, or two that disagree; 404 the payment or order; 409 `invalid_state` when the payment has not succeeded or is fully refunded; 400 `amount` above what is left. Takes `Idempotency-Key`.',
        body: CreateRefundBody,
        response: { 201: Refund },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createRefund(request.ctx, request.body);
    },
  );
  app.get(
    '/refunds/:id',
    { config: { expand: 'refund' }, schema: { tags: ['Refunds'], summary: 'Retrieve a refund', params: IdParams, response: { 200: Refund } } },
    async (request) => retrieveRefund(request.ctx, request.params.id),
  );
  app.patch(
    '/refunds/:id',
    { schema: { tags: ['Refunds'], summary: "Replace a refund's metadata", params: IdParams, body: MetadataBody, response: { 200: Refund } } },
    async (request) => updateRefundMetadata(request.ctx, request.params.id, request.body),
  );
};
