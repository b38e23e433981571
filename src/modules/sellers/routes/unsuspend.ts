// POST /v1/sellers/{id}/unsuspend: suspended → active, recorded as a moderation action.
import { IdParams } from '../../../http/schemas.js';
import type { App, Services } from '../../../http/types.js';
import { changeSuspension } from '../operations.js';
import { SellerRecord, UnsuspendBody } from '../schemas.js';

export function unsuspendSellerRoute(app: App, services: Services): void {
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
        body: { ...UnsuspendBody, examples: [{ reason: 'Appeal accepted.' }] },
        response: { 200: SellerRecord },
      },
    },
    async (request) => changeSuspension(services, request.api.scope, request.params.id, 'unsuspend', request.body.reason ?? null),
  );
}
