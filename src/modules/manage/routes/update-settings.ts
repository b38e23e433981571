// PATCH /manage/v1/marketplaces/{id}/modes/{mode}/settings: merges the fields sent.
import type { RouteModule } from '../../../http/types.js';
import { SettingsPatch } from '../../marketplace/settings.js';
import { updateModeSettings } from '../../marketplaces/mode-settings.js';
import { ModeParams, ModeSettings, TAG } from '../schemas.js';

export const updateSettingsRoute: RouteModule = (app, services) => {
  app.patch(
    '/marketplaces/:id/modes/:mode/settings',
    {
      schema: {
        tags: [TAG],
        summary: "Update a mode's settings",
        description:
          'Fields sent replace their stored values; fields left out keep theirs. platform_fee is replaced as a whole object. ' +
          'Needs the owner, admin or developer role.',
        params: ModeParams,
        body: SettingsPatch,
        response: { 200: ModeSettings },
      },
    },
    async (request) =>
      updateModeSettings(services, request.principal, { marketplaceId: request.params.id, mode: request.params.mode }, request.body),
  );
};
