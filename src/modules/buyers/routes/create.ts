// POST /v1/buyers: create a buyer.
import type { RouteModule } from '../../../contracts/wiring.js';
import { createBuyer } from '../operations.js';
import { Buyer, CreateBuyerBody } from '../schemas.js';

export const createBuyerRoute: RouteModule = (app) => {
  app.post(
    '/buyers',
    {
      schema: {
        tags: ['Buyers'],
        summary: 'Create a buyer',
        description: '`external_id` is unique per marketplace and mode (409 `resource_exists`, `param: external_id`). Emits `buyer.created`.',
        body: CreateBuyerBody,
        response: { 201: Buyer },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createBuyer(request.ctx, request.body);
    },
  );
};
