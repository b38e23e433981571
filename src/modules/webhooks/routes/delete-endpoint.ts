// DELETE /v1/webhook_endpoints/{id}: the endpoint and its deliveries.
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { deleteWebhookEndpoint } from '../operations.js';
import { DeletedWebhookEndpoint } from '../schemas.js';

export const deleteWebhookEndpointRoute: RouteModule = (app) => {
  app.delete(
    '/webhook_endpoints/:id',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Delete a webhook endpoint',
        description: 'Its deliveries are deleted too.',
        params: IdParams,
        response: { 200: DeletedWebhookEndpoint },
      },
    },
    async (request) => deleteWebhookEndpoint(request.ctx, request.params.id),
  );
};
