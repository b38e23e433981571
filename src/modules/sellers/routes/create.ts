// POST /v1/sellers: create a seller.
import type { RouteModule } from '../../../contracts/wiring.js';
import { createSeller } from '../operations.js';
import { CreateSellerBody, Seller } from '../schemas.js';

export const createSellerRoute: RouteModule = (app) => {
  app.post(
    '/sellers',
    {
      schema: {
        tags: ['Sellers'],
        summary: 'Create a seller',
        description: '`external_id` is unique per marketplace and mode (409 `resource_exists`, `param: external_id`). Emits `seller.created`.',
        body: CreateSellerBody,
        response: { 201: Seller },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createSeller(request.ctx, request.body);
    },
  );
};
