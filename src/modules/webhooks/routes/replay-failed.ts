// POST /v1/webhook_endpoints/{id}/replay_failed
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { replayFailedWebhookDeliveries } from '../operations.js';
import { ReplayFailedDeliveriesBody, WebhookReplay } from '../schemas.js';

export const replayFailedWebhookDeliveriesRoute: RouteModule = (app) => {
  app.post(
    '/webhook_endpoints/:id/replay_failed',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Replay every failed delivery of an endpoint',
        description:
          'On the server: every delivery of the endpoint that is `failed` (created at or after `since`, when given) gets a new ' +
          'pending delivery of the same event, with `replay_of` naming it (as `POST /v1/webhook_deliveries/{id}/replay` does one), ' +
          'oldest first; the originals are unchanged. Written in pages of 500 deliveries, one transaction each: if the call fails ' +
          'midway, the pages already written stay replayed (calling again replays those once more). The answer counts them; ' +
          '`replayed: 0` when none failed. A disabled endpoint answers 409 `invalid_state`: enable it first.',
        params: IdParams,
        body: ReplayFailedDeliveriesBody,
        response: { 200: WebhookReplay },
      },
    },
    async (request) => replayFailedWebhookDeliveries(request.ctx, request.params.id, request.body),
  );
};
