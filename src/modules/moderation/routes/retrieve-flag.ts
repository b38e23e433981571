// GET /v1/flags/{id}
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { retrieveFlag } from '../operations.js';
import { Flag } from '../schemas.js';

export const retrieveFlagRoute: RouteModule = (app) => {
  app.get(
    '/flags/:id',
    {
      schema: {
        tags: ['Trust and safety'],
        summary: 'Retrieve a flag',
        description:
          '`resolution` and `resolved_at` are set once resolved. Erasing the reporter nulls `description`. ' +
          'An id that is not a flag of this marketplace and mode answers 404 `resource_missing`.',
        params: IdParams,
        response: { 200: Flag },
      },
    },
    async (request) => retrieveFlag(request.ctx, request.params.id),
  );
};
