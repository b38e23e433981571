// PUT /manage/v1/marketplaces/{id}/modes/{mode}/processor: connects the mode to a processor.
import type { RouteModule } from '../../../contracts/wiring.js';
import { MANAGEMENT_TAG } from '../../accounts/index.js';
import { connectProcessor } from '../processor-connection.js';
import { ModeParams, ProcessorConnection, PutProcessorBody } from '../schemas.js';

export const connectProcessorRoute: RouteModule = (app) => {
  app.put(
    '/marketplaces/:id/modes/:mode/processor',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: 'Connect a processor',
        description:
          '`{provider: "simulated"}` in test mode only (403 test_mode_only in live), or `{provider: "stripe", secret_key, webhook_secret}` ' +
          'with a key of the same mode. Secrets are stored encrypted and answered masked. ' +
          'Needs the owner, admin or developer role (403 permission_denied otherwise).',
        params: ModeParams,
        body: PutProcessorBody,
        response: { 200: ProcessorConnection },
      },
    },
    async (request) => connectProcessor(request.user, request.params, request.body),
  );
};
