// POST /manage/v1/api_keys/{id}/roll: a replacement key; the old one expires later.
import { Type } from '@sinclair/typebox';
import { Body, IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../http/types.js';
import { MAX_ROLL_EXPIRY_SECONDS, rollKey } from '../../marketplaces/api-keys.js';
import { TAG } from '../schemas.js';
import { CreatedApiKey } from './create-api-key.js';

const RollBody = Body({
  expires_in_seconds: Type.Integer({
    minimum: 0,
    maximum: MAX_ROLL_EXPIRY_SECONDS,
    description: 'How long the old key keeps working: 0 (stops at once) to 604800 (7 days).',
    examples: [86400],
  }),
});
Object.assign(RollBody, { examples: [{ expires_in_seconds: 86400 }] });

const RolledApiKey = {
  ...CreatedApiKey,
  examples: [{ ...CreatedApiKey.examples[0], id: 'key_01jd0000000000000000000001', created_at: '2026-11-22T09:30:00.000Z' }],
};

export const rollApiKeyRoute: RouteModule = (app, services) => {
  app.post(
    '/api_keys/:id/roll',
    {
      schema: {
        tags: [TAG],
        summary: 'Roll an API key',
        description:
          'Creates a key of the same type and name (answered whole, once) and sets the old key to expire. ' +
          'A revoked, expired or already rolled key answers 409 invalid_state. ' +
          'Needs the owner, admin or developer role (403 permission_denied otherwise).',
        params: IdParams,
        body: RollBody,
        response: { 201: RolledApiKey },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return rollKey(services, request.principal, request.params.id, request.body);
    },
  );
};
