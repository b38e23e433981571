// POST /v1/listings/{id}/media
import { IdParams } from '../../http/schemas.js';
import type { RouteModule } from '../../contracts/wiring.js';
import { CreateMediaBody, MediaUpload } from '../../modules/media/index.js';
import { addListingMedia } from '../add-listing-media.js';

export const addListingMediaRoute: RouteModule = (app) => {
  app.post(
    '/listings/:id/media',
    {
      schema: {
        tags: ['Media'],
        summary: 'Start a media upload',
        description:
          'Declares a file of the listing (a pending media) and answers the address to PUT it to, with the declared ' +
          'Content-Type and exactly `size_bytes` bytes, within 10 minutes (`upload_expires_at`, on the mode\'s clock); then call ' +
          'complete. A media not completed by then is deleted with its file (`media.deleted`). A removed listing takes ' +
          'no media (409 `invalid_state`). A listing has at most `MAX_MEDIA_PER_LISTING` media (a setting of the service, ' +
          'default 20), pending uploads included; past it 409 `limit_exceeded`.',
        params: IdParams,
        body: CreateMediaBody,
        response: { 201: MediaUpload },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return addListingMedia(request.ctx, request.params.id, request.body);
    },
  );
};
