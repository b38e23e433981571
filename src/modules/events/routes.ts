// GET /v1/events and GET /v1/events/{id} (interface.md 4.9): secret key only.
import type { RouteModule } from '../../http/types.js';
import { pageRequest } from '../../http/pagination.js';
import { IdParams, ListOf } from '../../http/schemas.js';
import { listEvents, retrieveEvent } from './operations.js';
import { EventRecord, ListEventsQuery } from './schemas.js';

export const eventRoutes: RouteModule = (app, { db }) => {
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
        response: { 200: ListOf(EventRecord) },
      },
    },
    async (request) => {
      const { type, ...paging } = request.query;
      return listEvents(db, request.api.scope, pageRequest(paging, 'event'), { type });
    },
  );

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
        response: { 200: EventRecord },
      },
    },
    async (request) => retrieveEvent(db, request.api.scope, request.params.id),
  );
};
