// GET /v1/buyers/{id}
import { IdParams } from '../../../http/schemas.js';
import type { App, Services } from '../../../http/types.js';
import { retrieveBuyer } from '../operations.js';
import { BuyerRecord } from '../schemas.js';

export function retrieveBuyerRoute(app: App, services: Services): void {
  app.get(
    '/buyers/:id',
    { schema: { tags: ['Buyers'], summary: 'Retrieve a buyer', params: IdParams, response: { 200: BuyerRecord } } },
    async (request) => retrieveBuyer(services, request.api.scope, request.params.id),
  );
}
