// POST /v1/sellers/{id}/unsuspend: suspended → active, recorded as a moderation action.
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { changeSuspension } from '../operations.js';
import { Seller, UnsuspendSellerBody } from '../schemas.js';

export const unsuspendSellerRoute: RouteModule = (app) => {
  app.post(
    '/sellers/:id/unsuspend',
    {
      schema: {
        tags: ['Sellers'],
        summary: 'Lift a suspension',
        operationId: 'unsuspendSeller',
        description:
          'suspended → active. 409 `invalid_state` otherwise. The body is optional. ' +
          'Emits `seller.unsuspended` and records a moderation action (`moderation_action.created`).',
        params: IdParams,
        body: UnsuspendSellerBody,
        response: { 200: Seller },
      },
    },
    async (request) => changeSuspension(request.ctx, request.params.id, 'unsuspend', request.body.reason ?? null),
  );
};
