// POST /manage/v1/marketplaces: a marketplace with its test and live keys.
import { Type } from '@sinclair/typebox';
import { Body, Currency } from '../../../http/schemas.js';
import type { RouteModule } from '../../../http/types.js';
import { createMarketplaceFor } from '../../marketplaces/operations.js';
import { EXAMPLES, KeyPair, ManagedMarketplace, TAG, WorkspaceQuery } from '../schemas.js';

const CreateBody = Body({
  name: Type.String({ minLength: 1, maxLength: 120, examples: ['Vintage Finds'] }),
  currency: Currency,
});
Object.assign(CreateBody, { examples: [{ name: 'Vintage Finds', currency: 'USD' }] });

const CreatedMarketplace = Type.Object(
  { marketplace: ManagedMarketplace, api_keys: Type.Object({ test: KeyPair, live: KeyPair }) },
  { examples: [{ marketplace: EXAMPLES.marketplace, api_keys: { test: EXAMPLES.keyPair('test'), live: EXAMPLES.keyPair('live') } }] },
);

export const createMarketplaceRoute: RouteModule = (app, services) => {
  app.post(
    '/marketplaces',
    {
      schema: {
        tags: [TAG],
        summary: 'Create a marketplace',
        description:
          'Needs the owner or admin role (403 permission_denied otherwise). The currency (ISO 4217) is fixed at creation. Test mode starts connected to the simulated processor. ' +
          'The secret keys are shown in this answer only.',
        querystring: WorkspaceQuery,
        body: CreateBody,
        response: { 201: CreatedMarketplace },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createMarketplaceFor(services, request.principal, { ...request.body, workspace: request.query.workspace });
    },
  );
};
