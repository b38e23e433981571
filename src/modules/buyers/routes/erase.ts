// DELETE /v1/buyers/{id}: erase the buyer's personal data.
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { eraseBuyer } from '../operations.js';
import { Buyer } from '../schemas.js';

export const eraseBuyerRoute: RouteModule = (app) => {
  app.delete(
    '/buyers/:id',
    {
      schema: {
        tags: ['Buyers'],
        summary: 'Erase a buyer',
        description:
          'Removes name, email, external id and metadata from the buyer and from every stored event. The text the buyer wrote ' +
          'on orders and disputes (cancellation and transition reasons, a dispute description, evidence text) becomes `[erased]`, ' +
          'in the records, their events, webhook delivery bodies and stored answers; what the seller or the platform wrote stays. ' +
          'The record stays with `erased_at`. Emits `buyer.erased`. Erasing again answers the erased buyer and changes nothing.',
        params: IdParams,
        response: { 200: Buyer },
      },
    },
    async (request) => eraseBuyer(request.ctx, request.params.id),
  );
};
