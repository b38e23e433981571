// GET /v1/categories/{id}
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { retrieveCategory } from '../operations.js';
import { Category } from '../schemas.js';

export const retrieveCategoryRoute: RouteModule = (app) => {
  app.get(
    '/categories/:id',
    {
      schema: {
        tags: ['Categories'],
        summary: 'Retrieve a category',
        description:
          'The category with its attribute schema, fee and prohibited flag. ' +
          'An id that is not a category of this marketplace and mode answers 404 `resource_missing`.',
        params: IdParams,
        response: { 200: Category },
      },
    },
    async (request) => retrieveCategory(request.ctx, request.params.id),
  );
};
