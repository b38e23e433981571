// GET /v1/categories/{id}/attribute_schema
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../http/types.js';
import { retrieveAttributeSchema } from '../operations.js';
import { AttributeSchema } from '../schemas.js';
import { categoryContext } from './context.js';

export const retrieveAttributeSchemaRoute: RouteModule = (app, services) => {
  app.get(
    '/categories/:id/attribute_schema',
    {
      schema: {
        tags: ['Categories'],
        summary: "Retrieve a category's attribute schema",
        params: IdParams,
        response: { 200: AttributeSchema },
      },
    },
    async (request) => retrieveAttributeSchema(categoryContext(request, services), request.params.id),
  );
};
