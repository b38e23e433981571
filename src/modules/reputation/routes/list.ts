// GET /v1/reputation_events?subject=
import type { RouteModule } from '../../../contracts/wiring.js';
import { listReputationEvents } from '../operations.js';
import { ListReputationEventsQuery, ReputationEventList } from '../schemas.js';

export const listReputationEventsRoute: RouteModule = (app) => {
  app.get(
    '/reputation_events',
    {
      schema: {
        tags: ['Reputation'],
        summary: 'List reputation events',
        description:
          'The reputation events about one buyer or seller (`subject`, required), newest first: `review` (a visible review), ' +
          '`order_completed` (the seller completed an order), `dispute_lost` (a dispute decided against the subject). ' +
          'A removed review voids its event (`voided: true`); voided events no longer count.',
        querystring: ListReputationEventsQuery,
        response: { 200: ReputationEventList },
      },
    },
    async (request) => listReputationEvents(request.ctx, request.query),
  );
};
