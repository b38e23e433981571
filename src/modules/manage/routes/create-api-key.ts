// POST /manage/v1/marketplaces/{id}/modes/{mode}/api_keys
import { Type } from '@sinclair/typebox';
import { Body } from '../../../http/schemas.js';
import type { RouteModule } from '../../../http/types.js';
import { createKey } from '../../marketplaces/api-keys.js';
import { ApiKey, ApiKeyType, EXAMPLES, ModeParams, TAG } from '../schemas.js';

const CreateKeyBody = Body({
  type: ApiKeyType,
  name: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 100, examples: ['Checkout server'] }), Type.Null()])),
});
Object.assign(CreateKeyBody, { examples: [{ type: 'secret', name: 'Checkout server' }] });

/** The answer that creates a secret key is the only one that shows it whole. */
export const CreatedApiKey = { ...ApiKey, examples: [{ ...EXAMPLES.apiKey, key: EXAMPLES.keyPair('test').secret_key }] };

export const createApiKeyRoute: RouteModule = (app, services) => {
  app.post(
    '/marketplaces/:id/modes/:mode/api_keys',
    {
      schema: {
        tags: [TAG],
        summary: 'Create an API key',
        description:
          'A secret key is shown whole in this answer only; store it now. ' +
          'Needs the owner, admin or developer role (403 permission_denied otherwise).',
        params: ModeParams,
        body: CreateKeyBody,
        response: { 201: CreatedApiKey },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createKey(services, request.principal, { marketplaceId: request.params.id, mode: request.params.mode }, request.body);
    },
  );
};
