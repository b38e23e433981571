// GET /v1/webhook_deliveries/{id}
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { retrieveWebhookDelivery } from '../operations.js';
import { WebhookDelivery } from '../schemas.js';

export const retrieveWebhookDeliveryRoute: RouteModule = (app) => {
  app.get(
    '/webhook_deliveries/:id',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Retrieve a webhook delivery',
        params: IdParams,
        response: { 200: WebhookDelivery },
      },
    },
    async (request) => retrieveWebhookDelivery(request.ctx, request.params.id),
  );
};
