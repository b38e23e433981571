// POST /v1/webhook_endpoints/{id}/test
import { EmptyBody, IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { sendTestEvent, WebhookEndpointTest } from '../test-event.js';

export const sendTestEventRoute: RouteModule = (app) => {
  app.post(
    '/webhook_endpoints/:id/test',
    {
      schema: {
        tags: ['Webhooks'],
        summary: 'Send a test event',
        description:
          'Sends one signed `webhook_endpoint.test` event (its `data.object` the endpoint, without its secret) to the endpoint now, whatever its status and `enabled_events`, ' +
          'and answers what was sent and what the endpoint answered (2xx within 10 seconds: `succeeded`). Headers and signature are those of every delivery. ' +
          'Nothing is stored: the event is in no event list and no delivery is recorded; the answer waits for the attempt (at most 10 seconds).',
        params: IdParams,
        body: EmptyBody,
        response: { 200: WebhookEndpointTest },
      },
    },
    async (request) => sendTestEvent(request.ctx, request.params.id),
  );
};
