// GET /manage/v1/marketplaces/{id}/modes/{mode}/settings
import type { RouteModule } from '../../../contracts/wiring.js';
import { MANAGEMENT_TAG } from '../../accounts/index.js';
import { ModeParams, ModeSettings } from '../schemas.js';
import { retrieveSettings } from '../settings-management.js';

export const retrieveSettingsRoute: RouteModule = (app) => {
  app.get(
    '/marketplaces/:id/modes/:mode/settings',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: "Retrieve a mode's settings",
        description:
          'Every setting of the test or live mode, defaults included. Any role may read them. ' +
          'A marketplace of a workspace you are not a member of answers 404 resource_missing.',
        params: ModeParams,
        response: { 200: ModeSettings },
      },
    },
    async (request) => retrieveSettings(request.user, request.params),
  );
};
