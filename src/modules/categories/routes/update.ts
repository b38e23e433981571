// PATCH /v1/categories/{id}
import { errors } from '../../../errors.js';
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../http/types.js';
import { updateCategory } from '../operations.js';
import { Category, UpdateCategoryBody } from '../schemas.js';
import { categoryContext } from './context.js';

export const updateCategoryRoute: RouteModule = (app, services) => {
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
    async (request) => {
      const { key, ...changes } = request.body;
      if (key !== undefined) throw errors.invalidRequest("A category's key is set at creation and cannot be changed.", 'key');
      return updateCategory(categoryContext(request, services), request.params.id, changes);
    },
  );
};
