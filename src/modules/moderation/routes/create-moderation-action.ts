// POST /v1/moderation_actions: apply a moderation action directly.
import type { RouteModule } from '../../../contracts/wiring.js';
import { createModerationAction } from '../operations.js';
import { ACTION_TARGET_TYPES_TEXT, CreateModerationActionBody, ModerationAction } from '../schemas.js';

export const createModerationActionRoute: RouteModule = (app) => {
  app.post(
    '/moderation_actions',
    {
      schema: {
        tags: ['Trust and safety'],
        summary: 'Apply a moderation action',
        description:
          '`remove_listing` removes the listing with `reason` as its `removed_reason`; `remove_review` removes the review; ' +
          '`suspend_seller` and `unsuspend_seller` are the seller suspension. The target\'s type follows from the action ' +
          `(${ACTION_TARGET_TYPES_TEXT}); \`target_type\` may be given and must then agree (400 \`invalid_request\`, param \`target_type\`, when not). ` +
          '404 `resource_missing`, param `target`, when there is no such target; a target that cannot make the change ' +
          'answers 409 `invalid_state`. The removals and the suspension resolve the target\'s open flags with this action. ' +
          'Emits the target\'s own event, `moderation_action.created`, and `flag.resolved` per flag resolved.',
        body: CreateModerationActionBody,
        response: { 201: ModerationAction },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createModerationAction(request.ctx, request.body);
    },
  );
};
