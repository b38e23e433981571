// PATCH /v1/webhook_endpoints/{id}
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { updateWebhookEndpoint } from '../operations.js';
import { UpdateWebhookEndpointBody, WebhookEndpoint } from '../schemas.js';

export const updateWebhookEndpointRoute: RouteModule = (app) => {
  app.patch(
    '/webhook_endpoints/:id',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Update a webhook endpoint',
        description:
          'Fields left out stay; `metadata` is replaced whole. `status: disabled` turns the endpoint off: its pending ' +
          'deliveries fail with error `endpoint_disabled` (replay them later). `status: enabled` turns it back on and ' +
          'clears `disabled_reason` and `failing_since`.',
        params: IdParams,
        body: UpdateWebhookEndpointBody,
        response: { 200: WebhookEndpoint },
      },
    },
    async (request) => updateWebhookEndpoint(request.ctx, request.params.id, request.body),
  );
};
