// POST /v1/webhook_deliveries/{id}/replay
import { EmptyBody, IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { replayWebhookDelivery } from '../operations.js';
import { WebhookDelivery } from '../schemas.js';

export const replayWebhookDeliveryRoute: RouteModule = (app) => {
  app.post(
    '/webhook_deliveries/:id/replay',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Replay a webhook delivery',
        description:
          'A new pending delivery of the same event (the stored body) to the same endpoint, with `replay_of` set; ' +
          'the original is unchanged. A disabled endpoint answers 409 `invalid_state`: enable it first.',
        params: IdParams,
        body: EmptyBody,
        response: { 201: WebhookDelivery },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return replayWebhookDelivery(request.ctx, request.params.id);
    },
  );
};
