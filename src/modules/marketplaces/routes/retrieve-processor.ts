// GET /manage/v1/marketplaces/{id}/modes/{mode}/processor
import type { RouteModule } from '../../../contracts/wiring.js';
import { MANAGEMENT_TAG } from '../../accounts/index.js';
import { retrieveProcessorConnection } from '../processor-connection.js';
import { ModeParams, ProcessorConnection } from '../schemas.js';

export const retrieveProcessorRoute: RouteModule = (app) => {
  app.get(
    '/marketplaces/:id/modes/:mode/processor',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Retrieve the processor connection',
        description: 'Secrets are masked. A mode without a connection answers 404 resource_missing.',
        params: ModeParams,
        response: { 200: ProcessorConnection },
      },
    },
    async (request) => retrieveProcessorConnection(request.user, request.params),
  );
};
