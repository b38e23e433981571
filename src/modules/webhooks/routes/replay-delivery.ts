// POST /v1/webhook_deliveries/{id}/replay
import { EmptyBody, IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { replayWebhookDelivery } from '../operations.js';
import { WebhookDelivery } from '../schemas.js';
import { replayRateLimit } from './replay-rate.js';

export const replayWebhookDeliveryRoute: RouteModule = (app, services) => {
  app.post(
    '/webhook_deliveries/:id/replay',
    {
      preHandler: replayRateLimit(services),
      schema: {
        tags: ['Webhooks'],
        summary: 'Replay a webhook delivery',
        description:
          'A new pending delivery of the same event (its body is the event, as it is now) to the same endpoint, with `replay_of` set ' +
          '(201); the original is unchanged. While the event already has a pending delivery to that endpoint (one waiting for its ' +
          'next retry included), no new one is made: that one is answered (200), made due now if it was waiting for a retry. ' +
          'A disabled endpoint answers 409 `invalid_state`: enable it first. An endpoint at its bound of pending deliveries ' +
          '(`MAX_PENDING_WEBHOOK_DELIVERIES`) answers 409 `limit_exceeded`. Replays are rate limited per mode ' +
          '(`WEBHOOK_REPLAYS_PER_SECOND`, with `replay_failed`): 429 `rate_limited` with Retry-After.',
        params: IdParams,
        body: EmptyBody,
        response: { 200: WebhookDelivery, 201: WebhookDelivery },
      },
    },
    async (request, reply) => {
      const { delivery, created } = await replayWebhookDelivery(request.ctx, request.params.id);
      reply.code(created ? 201 : 200);
      return delivery;
    },
  );
};
