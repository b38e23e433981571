// GET /v1/categories/{id}/attribute_schema
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { retrieveAttributeSchema } from '../operations.js';
import { AttributeSchema } from '../schemas.js';

export const retrieveAttributeSchemaRoute: RouteModule = (app) => {
  app.get(
    '/categories/:id/attribute_schema',
    {
      schema: {
        tags: ['Categories'],
        summary: "Retrieve a category's attribute schema",
        description:
          'The attribute definitions that listings of the category must fit, each with every field (null where unset). ' +
          'An id that is not a category of this marketplace and mode answers 404 `resource_missing`.',
        params: IdParams,
        response: { 200: AttributeSchema },
      },
    },
    async (request) => retrieveAttributeSchema(request.ctx, request.params.id),
  );
};
