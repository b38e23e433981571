// GET /v1/moderation_actions/{id}
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { retrieveModerationAction } from '../operations.js';
import { ModerationAction } from '../schemas.js';

export const retrieveModerationActionRoute: RouteModule = (app) => {
  app.get(
    '/moderation_actions/:id',
    {
      schema: {
        tags: ['Trust and safety'],
        summary: 'Retrieve a moderation action',
        description: '`flag` is the flag whose resolution made it, or null. 404 `resource_missing` for an id of another marketplace or mode.',
        params: IdParams,
        response: { 200: ModerationAction },
      },
    },
    async (request) => retrieveModerationAction(request.ctx, request.params.id),
  );
};
