// POST /v1/media/{id}/complete
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { completeMedia } from '../operations.js';
import { Media } from '../schemas.js';

export const completeMediaRoute: RouteModule = (app) => {
  app.post(
    '/media/:id/complete',
    {
      schema: {
        tags: ['Media'],
        summary: 'Complete a media upload',
        description:
          'Checks the stored file: none → 409 `upload_missing`; a size other than declared, or bytes that are not of the ' +
          'declared type (read from the magic bytes) → 409 `upload_mismatch`, and the media stays pending. Then the media ' +
          'is ready, with a signed `url`; emits `media.ready`. A ready media answers 409 `invalid_state`.',
        params: IdParams,
        response: { 200: Media },
      },
    },
    async (request) => completeMedia(request.ctx, request.params.id),
  );
};
