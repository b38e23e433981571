// GET /v1/categories
import type { RouteModule } from '../../../contracts/wiring.js';
import { listCategories } from '../operations.js';
import { CategoryList, ListCategoriesQuery } from '../schemas.js';

export const listCategoriesRoute: RouteModule = (app) => {
  app.get(
    '/categories',
    {
      schema: {
        tags: ['Categories'],
        summary: 'List categories',
        description: 'Newest first. Pass `next_cursor` of a page as `starting_after` for the next.',
        querystring: ListCategoriesQuery,
        response: { 200: CategoryList },
      },
    },
    async (request) => listCategories(request.ctx, request.query),
  );
};
