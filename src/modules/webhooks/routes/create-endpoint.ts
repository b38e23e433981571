// POST /v1/webhook_endpoints: create an endpoint; the answer carries its signing secret, once.
import type { RouteModule } from '../../../contracts/wiring.js';
import { createWebhookEndpoint } from '../operations.js';
import { CreateWebhookEndpointBody, WebhookEndpoint } from '../schemas.js';

export const createWebhookEndpointRoute: RouteModule = (app) => {
  app.post(
    '/webhook_endpoints',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Create a webhook endpoint',
        description:
          '`url` must be https:// with a host on the public internet (a name is resolved: every address must be public); ' +
          'otherwise 400 `param: url`. `enabled_events` takes event types or `*`; an unknown one answers 400 with ' +
          '`param: enabled_events[i]`. The answer holds `secret` (begins `whsec_`): it is shown only here and on rotation. ' +
          'A mode has at most `MAX_WEBHOOK_ENDPOINTS` endpoints (a setting of the service, default 16); past it 409 `limit_exceeded`: delete one first.',
        body: CreateWebhookEndpointBody,
        response: { 201: WebhookEndpoint },
      },
      config: { sealStoredAnswer: true },
    },
    async (request, reply) => {
      reply.code(201);
      return createWebhookEndpoint(request.ctx, request.body);
    },
  );
};
