// POST /v1/webhook_endpoints/{id}/rotate_secret
import { EmptyBody, IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { rotateWebhookEndpointSecret } from '../operations.js';
import { WebhookEndpoint } from '../schemas.js';

export const rotateWebhookEndpointSecretRoute: RouteModule = (app) => {
  app.post(
    '/webhook_endpoints/:id/rotate_secret',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Rotate the signing secret',
        description: 'The answer holds the new `secret`; the old one stops at once (attempts from now on are signed with the new one).',
        params: IdParams,
        body: EmptyBody,
        response: { 200: WebhookEndpoint },
      },
      config: { sealStoredAnswer: true },
    },
    async (request) => rotateWebhookEndpointSecret(request.ctx, request.params.id),
  );
};
