// GET /manage/v1/marketplaces/{id}/modes/{mode}/processor
import type { RouteModule } from '../../../http/types.js';
import { getProcessorConnection } from '../../marketplaces/processor-connection.js';
import { ModeParams, ProcessorConnection, TAG } from '../schemas.js';

export const getProcessorRoute: RouteModule = (app, services) => {
  app.get(
    '/marketplaces/:id/modes/:mode/processor',
    {
      schema: {
        tags: [TAG],
        summary: 'Retrieve the processor connection',
        description: 'Secrets are masked. A mode without a connection answers 404 resource_missing.',
        params: ModeParams,
        response: { 200: ProcessorConnection },
      },
    },
    async (request) =>
      getProcessorConnection(services, request.principal, { marketplaceId: request.params.id, mode: request.params.mode }),
  );
};
