// GET /v1/payments, GET /v1/payments/{id}, PATCH /v1/payments/{id}, POST /v1/payments/{id}/retry_release
import { EmptyBody, IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { listPayments, retrievePayment, retryRelease, updatePaymentMetadata } from '../operations.js';
import { ListPaymentsQuery, MetadataBody, Payment, PaymentList } from '../schemas.js';

export const paymentRoutes: RouteModule = (app) => {
  app.get(
    '/payments',
    { schema: { tags: ['Payments'], summary: 'List payments', description: 'Newest first, filtered by `order` and `status`.', querystring: ListPaymentsQuery, response: { 200: PaymentList } } },
    async (request) => listPayments(request.ctx, request.query),
  );
  app.get(
    '/payments/:id',
    { schema: { tags: ['Payments'], summary: 'Retrieve a payment', params: IdParams, response: { 200: Payment } } },
    async (request) => retrievePayment(request.ctx, request.params.id),
  );
  app.patch(
    '/payments/:id',
    { schema: { tags: ['Payments'], summary: "Replace a payment's metadata", params: IdParams, body: MetadataBody, response: { 200: Payment } } },
    async (request) => updatePaymentMetadata(request.ctx, request.params.id, request.body),
  );
  app.post(
    '/payments/:id/retry_release',
    {
      schema: {
        tags: ['Payments'],
        summary: "Retry a failed release of the seller's share",
        description:
          'failed → releasing (the transfer is asked for again), or failed again with the reason when the seller still cannot receive payouts, or nothing_to_release when refunds took everything. 409 `invalid_state` unless the release failed. A failed release is also retried automatically when the seller\'s payouts become enabled.',
        params: IdParams,
        body: EmptyBody,
        response: { 200: Payment },
      },
    },
    async (request) => retryRelease(request.ctx, request.params.id),
  );
};
