// GET /v1/events: secret key only.
import type { RouteModule } from '../../../contracts/wiring.js';
import { listEvents } from '../operations.js';
import { EventList, ListEventsQuery } from '../schemas.js';

export const listEventsRoute: RouteModule = (app) => {
  app.get(
    '/events',
    {
      schema: {
        tags: ['Events'],
        summary: 'List events',
        description:
          'Every state change on every resource of this marketplace and mode, newest first. ' +
          'Use it to catch up after missing webhook deliveries.',
        querystring: ListEventsQuery,
        response: { 200: EventList },
      },
    },
    async (request) => listEvents(request.ctx, request.query),
  );
};
