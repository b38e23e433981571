// GET /v1/events: secret key only.
import type { RouteModule } from '../../../contracts/wiring.js';
import { listEvents } from '../operations.js';
import { EventList, listEventsQuery } from '../schemas.js';

export const listEventsRoute: RouteModule = (app, services) => {
  app.get(
    '/events',
    {
      schema: {
        tags: ['Events'],
        summary: 'List events',
        description:
          'Every state change on every resource of this marketplace and mode, newest first. ' +
          'Use it to catch up after missing webhook deliveries.',
        querystring: listEventsQuery([...services.hooks.eventCatalog.keys()]),
        response: { 200: EventList },
      },
    },
    async (request) => listEvents(request.ctx, request.query),
  );
};
