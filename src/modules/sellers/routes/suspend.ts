// POST /v1/sellers/{id}/suspend: active → suspended, recorded as a moderation action.
import { IdParams } from '../../../http/schemas.js';
import type { App, Services } from '../../../http/types.js';
import { changeSuspension } from '../operations.js';
import { SellerRecord, SuspendBody } from '../schemas.js';

export function suspendSellerRoute(app: App, services: Services): void {
  app.post(
    '/sellers/:id/suspend',
    {
      schema: {
        tags: ['Sellers'],
        summary: 'Suspend a seller',
        description:
          'active → suspended: the seller can no longer publish or take orders. 409 `invalid_state` otherwise. ' +
          'Emits `seller.suspended` and records a moderation action (`moderation_action.created`).',
        params: IdParams,
        body: { ...SuspendBody, examples: [{ reason: 'Repeated reports of counterfeit goods.' }] },
        response: { 200: SellerRecord },
      },
    },
    async (request) => changeSuspension(services, request.api.scope, request.params.id, 'suspend', request.body.reason),
  );
}
