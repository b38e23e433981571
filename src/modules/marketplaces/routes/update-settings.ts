// PATCH /manage/v1/marketplaces/{id}/modes/{mode}/settings: merges the fields sent.
import type { RouteModule } from '../../../contracts/wiring.js';
import { MANAGEMENT_TAG } from '../../accounts/index.js';
import { ModeParams, ModeSettings, UpdateSettingsBody } from '../schemas.js';
import { updateSettings } from '../settings-management.js';

export const updateSettingsRoute: RouteModule = (app) => {
  app.patch(
    '/marketplaces/:id/modes/:mode/settings',
    {
      schema: {
        tags: [MANAGEMENT_TAG],
        summary: "Update a mode's settings",
        description:
          'Fields sent replace their stored values; fields left out keep theirs. platform_fee is replaced as a whole object. ' +
          'Needs the owner, admin or developer role (403 permission_denied otherwise).',
        params: ModeParams,
        body: UpdateSettingsBody,
        response: { 200: ModeSettings },
      },
    },
    async (request) => updateSettings(request.user, request.params, request.body),
  );
};
