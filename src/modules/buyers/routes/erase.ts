// DELETE /v1/buyers/{id}: erase the buyer's personal data (contract 5).
import { IdParams } from '../../../http/schemas.js';
import type { App, Services } from '../../../http/types.js';
import { eraseBuyer } from '../operations.js';
import { BuyerRecord } from '../schemas.js';

export function eraseBuyerRoute(app: App, services: Services): void {
  app.delete(
    '/buyers/:id',
    {
      schema: {
        tags: ['Buyers'],
        summary: 'Erase a buyer',
        description:
          'Removes name, email, external id and metadata from the buyer and from every stored event. The record stays with ' +
          '`erased_at`. Emits `buyer.erased`. Erasing again answers the erased buyer and changes nothing.',
        params: IdParams,
        response: { 200: BuyerRecord },
      },
    },
    async (request) => eraseBuyer(services, request.api.scope, request.params.id),
  );
}
