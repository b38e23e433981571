// GET /v1/moderation_actions: the moderation log, newest first, optionally of one target.
import type { RouteModule } from '../../../contracts/wiring.js';
import { listModerationActions } from '../operations.js';
import { ListModerationActionsQuery, ModerationActionList } from '../schemas.js';

export const listModerationActionsRoute: RouteModule = (app) => {
  app.get(
    '/moderation_actions',
    {
      schema: {
        tags: ['Trust and safety'],
        summary: 'List moderation actions',
        description:
          'The platform\'s audit log of what moderation did and why, newest first: flag resolutions, direct actions and ' +
          'the seller suspend and unsuspend operations. `target` narrows it to one object. Reasons outlive erasure.',
        querystring: ListModerationActionsQuery,
        response: { 200: ModerationActionList },
      },
    },
    async (request) => listModerationActions(request.ctx, request.query),
  );
};
