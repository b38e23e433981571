// POST /v1/sellers: create a seller (contract 5).
import type { App, Services } from '../../../http/types.js';
import { PartyCreateBody } from '../../parties/schemas.js';
import { createSeller } from '../operations.js';
import { SellerRecord } from '../schemas.js';

export function createSellerRoute(app: App, services: Services): void {
  app.post(
    '/sellers',
    {
      schema: {
        tags: ['Sellers'],
        summary: 'Create a seller',
        description: '`external_id` is unique per marketplace and mode (409 `resource_exists`, `param: external_id`). Emits `seller.created`.',
        body: { ...PartyCreateBody, examples: [{ external_id: 'user_4821', name: 'Ada Lovelace', email: 'ada@example.com' }] },
        response: { 201: SellerRecord },
      },
    },
    async (request, reply) => {
      const seller = await createSeller(services, request.api.scope, request.body);
      reply.code(201);
      return seller;
    },
  );
}
