// GET /manage/v1/marketplaces/{id}/modes/{mode}/settings
import type { RouteModule } from '../../../http/types.js';
import { getModeSettings } from '../../marketplaces/mode-settings.js';
import { ModeParams, ModeSettings, TAG } from '../schemas.js';

export const getSettingsRoute: RouteModule = (app, services) => {
  app.get(
    '/marketplaces/:id/modes/:mode/settings',
    {
      schema: {
        tags: [TAG],
        summary: "Retrieve a mode's settings",
        description:
          'Every setting of the test or live mode, defaults included. Any role may read them. ' +
          'A marketplace of a workspace you are not a member of answers 404 resource_missing.',
        params: ModeParams,
        response: { 200: ModeSettings },
      },
    },
    async (request) =>
      getModeSettings(services, request.principal, { marketplaceId: request.params.id, mode: request.params.mode }),
  );
};
