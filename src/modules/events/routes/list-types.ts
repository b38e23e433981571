// GET /v1/event_types: secret key only, like the events themselves.
import type { RouteModule } from '../../../contracts/wiring.js';
import { listEventTypes } from '../operations.js';
import { ListOf } from '../../../http/schemas.js';
import { eventTypeObject, ListEventTypesQuery } from '../schemas.js';

export const listEventTypesRoute: RouteModule = (app, services) => {
  const catalog = services.hooks.eventCatalog;
  app.get(
    '/event_types',
    {
      schema: {
        tags: ['Events'],
        summary: 'List event types',
        description:
          'Every event type the service emits, with what it means and the JSON Schema of its `data.object`. ' +
          'The list is short and the same for every marketplace, in the catalog\'s order; it pages like every list (`limit`, default 20, and `starting_after`: the `next_cursor` of the previous page, a type). ' +
          'The OpenAPI document carries the same catalog as its `webhooks`, one entry per type with the whole envelope.',
        querystring: ListEventTypesQuery,
        response: { 200: ListOf(eventTypeObject([...catalog.keys()])) },
      },
    },
    async (request) => listEventTypes(catalog, request.query),
  );
};
