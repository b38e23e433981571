// POST /v1/buyers: create a buyer (contract 5).
import type { App, Services } from '../../../http/types.js';
import { PartyCreateBody } from '../../parties/schemas.js';
import { createBuyer } from '../operations.js';
import { BuyerRecord } from '../schemas.js';

export function createBuyerRoute(app: App, services: Services): void {
  app.post(
    '/buyers',
    {
      schema: {
        tags: ['Buyers'],
        summary: 'Create a buyer',
        description: '`external_id` is unique per marketplace and mode (409 `resource_exists`, `param: external_id`). Emits `buyer.created`.',
        body: { ...PartyCreateBody, examples: [{ external_id: 'user_7310', name: 'Grace Hopper', email: 'grace@example.com' }] },
        response: { 201: BuyerRecord },
      },
    },
    async (request, reply) => {
      const buyer = await createBuyer(services, request.api.scope, request.body);
      reply.code(201);
      return buyer;
    },
  );
}
