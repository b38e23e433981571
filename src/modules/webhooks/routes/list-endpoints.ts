// GET /v1/webhook_endpoints: newest first.
import type { RouteModule } from '../../../contracts/wiring.js';
import { listWebhookEndpoints } from '../operations.js';
import { ListWebhookEndpointsQuery, WebhookEndpointList } from '../schemas.js';

export const listWebhookEndpointsRoute: RouteModule = (app) => {
  app.get(
    '/webhook_endpoints',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'List webhook endpoints',
        description: 'Newest first. Secrets are never listed.',
        querystring: ListWebhookEndpointsQuery,
        response: { 200: WebhookEndpointList },
      },
    },
    async (request) => listWebhookEndpoints(request.ctx, request.query),
  );
};
