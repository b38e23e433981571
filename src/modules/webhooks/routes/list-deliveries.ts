// GET /v1/webhook_deliveries: newest first, by endpoint and status.
import type { RouteModule } from '../../../contracts/wiring.js';
import { listWebhookDeliveries } from '../operations.js';
import { ListWebhookDeliveriesQuery, WebhookDeliveryList } from '../schemas.js';

export const listWebhookDeliveriesRoute: RouteModule = (app) => {
  app.get(
    '/webhook_deliveries',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'List webhook deliveries',
        description: 'Newest first, each with its request and response. `endpoint` and `status` filter.',
        querystring: ListWebhookDeliveriesQuery,
        response: { 200: WebhookDeliveryList },
      },
    },
    async (request) => listWebhookDeliveries(request.ctx, request.query),
  );
};
