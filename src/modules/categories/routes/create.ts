// POST /v1/categories
import type { RouteModule } from '../../../contracts/wiring.js';
import { createCategory } from '../operations.js';
import { Category, CreateCategoryBody } from '../schemas.js';

export const createCategoryRoute: RouteModule = (app) => {
  app.post(
    '/categories',
    {
      schema: {
        tags: ['Categories'],
        summary: 'Create a category',
        description:
          'Creates a category with a key unique in this marketplace and mode (409 `resource_exists`, param `key`). ' +
          'A `parent` must be a category of this marketplace and mode (404, param `parent`). Emits `category.created`.',
        body: CreateCategoryBody,
        response: { 201: Category },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createCategory(request.ctx, request.body);
    },
  );
};
