// GET /v1/webhook_endpoints/{id}
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { retrieveWebhookEndpoint } from '../operations.js';
import { WebhookEndpoint } from '../schemas.js';

export const retrieveWebhookEndpointRoute: RouteModule = (app) => {
  app.get(
    '/webhook_endpoints/:id',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Retrieve a webhook endpoint',
        description: 'Without its secret.',
        params: IdParams,
        response: { 200: WebhookEndpoint },
      },
    },
    async (request) => retrieveWebhookEndpoint(request.ctx, request.params.id),
  );
};
