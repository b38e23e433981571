// DELETE /v1/sellers/{id}: erase the seller's personal data.
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { eraseSeller } from '../operations.js';
import { Seller } from '../schemas.js';

export const eraseSellerRoute: RouteModule = (app) => {
  app.delete(
    '/sellers/:id',
    {
      schema: {
        tags: ['Sellers'],
        summary: 'Erase a seller',
        description:
          'Removes name, email, external id, metadata and the storefront from the seller and from every stored event, ' +
          'clears the notes of its verifications, and removes its listings (`removed_reason: seller_erased`). The text the seller ' +
          'wrote on orders and disputes (cancellation and transition reasons, evidence text) becomes `[erased]`, in the records, ' +
          'their events, webhook delivery bodies and stored answers; what the buyer or the platform wrote stays. ' +
          'The record stays with `erased_at`. Emits `seller.erased`. Erasing again answers the erased seller and changes nothing.',
        params: IdParams,
        response: { 200: Seller },
      },
    },
    async (request) => eraseSeller(request.ctx, request.params.id),
  );
};
