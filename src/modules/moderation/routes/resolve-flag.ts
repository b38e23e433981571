// POST /v1/flags/{id}/resolve: dismiss the flag, or act on its target.
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { resolveFlag } from '../operations.js';
import { Flag, ResolveFlagBody } from '../schemas.js';

export const resolveFlagRoute: RouteModule = (app) => {
  app.post(
    '/flags/:id/resolve',
    {
      schema: {
        tags: ['Trust and safety'],
        summary: 'Resolve a flag',
        description:
          '`dismiss` resolves this flag alone. `remove_listing` (a listing flag), `remove_review` (a review flag) or ' +
          '`suspend_seller` (a seller flag) is carried out on the target and recorded as one moderation action ' +
          '(`moderation_action.created`; its reason is `note`, else the flag\'s reason), and every open flag of the target ' +
          'is resolved with it. An action that does not fit the target: 400 `invalid_request`, param `action`. A resolved ' +
          'flag, or a target its owner refuses to change (a listing already removed, a seller already suspended or ' +
          'erased): 409 `invalid_state`. Emits `flag.resolved` for each flag resolved.',
        params: IdParams,
        body: ResolveFlagBody,
        response: { 200: Flag },
      },
    },
    async (request) => resolveFlag(request.ctx, request.params.id, request.body),
  );
};
