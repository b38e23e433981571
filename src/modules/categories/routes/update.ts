// PATCH /v1/categories/{id}
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { updateCategory } from '../operations.js';
import { Category, UpdateCategoryBody } from '../schemas.js';

export const updateCategoryRoute: RouteModule = (app) => {
  app.patch(
    '/categories/:id',
    {
      schema: {
        tags: ['Categories'],
        summary: 'Update a category',
        description:
          'Changes name, description, parent, fee or prohibited. `key` is fixed at creation (400, param `key`). ' +
          'A parent that is the category itself or one of its descendants is refused (400, param `parent`). ' +
          'Emits `category.updated` with `previous_attributes` when something changed. Listings already published ' +
          'in a category that becomes prohibited stay published.',
        params: IdParams,
        body: UpdateCategoryBody,
        response: { 200: Category },
      },
    },
    async (request) => updateCategory(request.ctx, request.params.id, request.body),
  );
};
