// GET /v1/event_types: secret key only, like the events themselves.
import type { RouteModule } from '../../../contracts/wiring.js';
import { listEventTypes } from '../operations.js';
import { EventTypeList } from '../schemas.js';

export const listEventTypesRoute: RouteModule = (app) => {
  app.get(
    '/event_types',
    {
      schema: {
        tags: ['Events'],
        summary: 'List event types',
        description:
          'Every event type the service emits, with what it means and the JSON Schema of its `data.object`. ' +
          'The list is short and the same for every marketplace: one page, never paged (`has_more` is false). ' +
          'The OpenAPI document carries the same catalog as its `webhooks`, one entry per type with the whole envelope.',
        response: { 200: EventTypeList },
      },
    },
    async () => listEventTypes(),
  );
};
