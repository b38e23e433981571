// GET /v1/events/{id}: secret key only.
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { retrieveEvent } from '../operations.js';
import { Event } from '../schemas.js';

export const retrieveEventRoute: RouteModule = (app) => {
  app.get(
    '/events/:id',
    {
      schema: {
        tags: ['Events'],
        summary: 'Retrieve an event',
        description:
          'The event as delivered to webhooks. After a seller or buyer is erased, its events carry the erased values. ' +
          'An id that is not an event of this marketplace and mode answers 404 `resource_missing`.',
        params: IdParams,
        response: { 200: Event },
      },
    },
    async (request) => retrieveEvent(request.ctx, request.params.id),
  );
};
