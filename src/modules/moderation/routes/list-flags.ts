// GET /v1/flags: newest first, filtered by status, target or target type.
import type { RouteModule } from '../../../contracts/wiring.js';
import { listFlags } from '../operations.js';
import { FlagList, ListFlagsQuery } from '../schemas.js';

export const listFlagsRoute: RouteModule = (app) => {
  app.get(
    '/flags',
    {
      schema: {
        tags: ['Trust and safety'],
        summary: 'List flags',
        description: 'Newest first; `status`, `target` and `target_type` narrow the list.',
        querystring: ListFlagsQuery,
        response: { 200: FlagList },
      },
    },
    async (request) => listFlags(request.ctx, request.query),
  );
};
