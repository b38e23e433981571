// POST /manage/v1/api_keys/{id}/roll: a replacement key; the old one expires later.
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { MANAGEMENT_TAG } from '../../accounts/index.js';
import { rollApiKey } from '../api-keys.js';
import { RollApiKeyBody, RolledApiKey } from '../schemas.js';

export const rollApiKeyRoute: RouteModule = (app) => {
  app.post(
    '/api_keys/:id/roll',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Roll an API key',
        description:
          'Creates a key of the same type and name (answered whole: a secret key only this once, a publishable key always) and sets the old key to expire. ' +
          'A revoked, expired or already rolled key answers 409 invalid_state. ' +
          'Needs the owner, admin or developer role (403 permission_denied otherwise).',
        params: IdParams,
        body: RollApiKeyBody,
        response: { 201: RolledApiKey },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return rollApiKey(request.user, request.params.id, request.body);
    },
  );
};
