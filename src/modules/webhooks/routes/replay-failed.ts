// POST /v1/webhook_endpoints/{id}/replay_failed
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { replayFailedWebhookDeliveries } from '../operations.js';
import { ReplayFailedDeliveriesBody, WebhookReplay } from '../schemas.js';
import { replayRateLimit } from './replay-rate.js';

export const replayFailedWebhookDeliveriesRoute: RouteModule = (app, services) => {
  app.post(
    '/webhook_endpoints/:id/replay_failed',
    {
      preHandler: replayRateLimit(services),
      schema: {
        tags: ['Webhooks'],
        summary: 'Replay every failed delivery of an endpoint',
        description:
          'On the server: every event with a `failed` delivery to the endpoint (created at or after `since`, when given) gets one ' +
          'new pending delivery, with `replay_of` naming its latest failed delivery (as `POST /v1/webhook_deliveries/{id}/replay` ' +
          'does one), oldest first; the originals are unchanged. Each event is replayed at most once per call however many failed ' +
          'deliveries it has, and not at all while it has a pending delivery to the endpoint, so calling again never doubles ' +
          'anything. Written in pages of 500 deliveries, one transaction each: if the call fails midway, the pages already written ' +
          'stay. The answer counts the new deliveries; `replayed: 0` when there was nothing to replay. A disabled endpoint answers ' +
          '409 `invalid_state`: enable it first. Past the endpoint\'s bound of pending deliveries (`MAX_PENDING_WEBHOOK_DELIVERIES`) ' +
          'it stops with 409 `limit_exceeded` (what was written before stays; the message says how many). Rate limited per mode ' +
          'with the single replay (`WEBHOOK_REPLAYS_PER_SECOND`): 429 `rate_limited` with Retry-After.',
        params: IdParams,
        body: ReplayFailedDeliveriesBody,
        response: { 200: WebhookReplay },
      },
    },
    async (request) => replayFailedWebhookDeliveries(request.ctx, request.params.id, request.body),
  );
};
