// POST /v1/flags: report a listing, review, seller or buyer.
import type { RouteModule } from '../../../contracts/wiring.js';
import { createFlag } from '../operations.js';
import { CreateFlagBody, Flag } from '../schemas.js';

export const createFlagRoute: RouteModule = (app) => {
  app.post(
    '/flags',
    {
      schema: {
        tags: ['Trust and safety'],
        summary: 'Flag a listing, review, seller or buyer',
        description:
          'Creates an open flag. `target` must be a `target_type` object of this marketplace and mode (404 `resource_missing`, ' +
          'param `target`); `reporter`, when given, a buyer or seller of it (404, param `reporter`) that is not erased ' +
          '(409 `invalid_state`, param `reporter`). Emits `flag.created`.',
        body: CreateFlagBody,
        response: { 201: Flag },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createFlag(request.ctx, request.body);
    },
  );
};
