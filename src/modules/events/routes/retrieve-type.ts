// GET /v1/event_types/{type}: secret key only.
import type { RouteModule } from '../../../contracts/wiring.js';
import { retrieveEventType } from '../operations.js';
import { eventTypeObject, EventTypeParams } from '../schemas.js';

export const retrieveEventTypeRoute: RouteModule = (app, services) => {
  const catalog = services.hooks.eventCatalog;
  app.get(
    '/event_types/:type',
    {
      schema: {
        tags: ['Events'],
        summary: 'Retrieve an event type',
        description:
          'One event type of the catalog, with the JSON Schema of its `data.object`. ' +
          'A type the service does not emit answers 404 `resource_missing`.',
        params: EventTypeParams,
        response: { 200: eventTypeObject([...catalog.keys()]) },
      },
    },
    async (request) => retrieveEventType(catalog, request.params.type),
  );
};
