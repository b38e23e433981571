// DELETE /v1/media/{id}
import { IdParams } from '../../../http/schemas.js';
import type { RouteModule } from '../../../contracts/wiring.js';
import { deleteMedia } from '../operations.js';
import { Media } from '../schemas.js';

export const deleteMediaRoute: RouteModule = (app) => {
  app.delete(
    '/media/:id',
    {
      schema: {
        tags: ['Media'],
        summary: 'Delete a media',
        description:
          'Pending or ready: the media goes, and its file is deleted from the store right after (a background job). ' +
          'Answers the media as it was, `url` null; emits `media.deleted`.',
        params: IdParams,
        response: { 200: Media },
      },
    },
    async (request) => deleteMedia(request.ctx, request.params.id),
  );
};
