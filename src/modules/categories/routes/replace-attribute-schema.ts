// PUT /v1/categories/{id}/attribute_schema
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { replaceAttributeSchema } from '../operations.js';
import { AttributeSchema, AttributeSchemaInput } from '../schemas.js';

export const replaceAttributeSchemaRoute: RouteModule = (app) => {
  app.put(
    '/categories/:id/attribute_schema',
    {
      schema: {
        tags: ['Categories'],
        summary: "Replace a category's attribute schema",
        description:
          'Up to 50 definitions with unique keys. `options` are required for, and only for, `enum`; `min` and `max` ' +
          'apply to `number` and `integer`; `max_length` to `string`. Refused with 409 `schema_conflict` (the message ' +
          'names the listing) when a listing of the category that is not removed would no longer fit. Emits ' +
          '`category.updated` with the old schema in `previous_attributes` when the schema changed.',
        params: IdParams,
        body: AttributeSchemaInput,
        response: { 200: AttributeSchema },
      },
    },
    async (request) => replaceAttributeSchema(request.ctx, request.params.id, request.body),
  );
};
