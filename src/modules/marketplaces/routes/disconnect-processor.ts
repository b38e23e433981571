// DELETE /manage/v1/marketplaces/{id}/modes/{mode}/processor
import type { RouteModule } from '../../../contracts/wiring.js';
import { MANAGEMENT_TAG } from '../../accounts/index.js';
import { disconnectProcessor } from '../processor-connection.js';
import { DeletedProcessorConnection, ModeParams } from '../schemas.js';

export const disconnectProcessorRoute: RouteModule = (app) => {
  app.delete(
    '/marketplaces/:id/modes/:mode/processor',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Disconnect the processor',
        description:
          'Answers the removed connection (masked) with deleted: true. ' +
          'Needs the owner, admin or developer role (403 permission_denied otherwise).',
        params: ModeParams,
        response: { 200: DeletedProcessorConnection },
      },
    },
    async (request) => disconnectProcessor(request.user, request.params),
  );
};
