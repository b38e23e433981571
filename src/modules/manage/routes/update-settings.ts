// PATCH /manage/v1/marketplaces/{id}/modes/{mode}/settings: merges the fields sent.
import type { RouteModule } from '../../../http/types.js';
import { SettingsPatch } from '../../marketplace/settings.js';
import { updateModeSettings } from '../../marketplaces/mode-settings.js';
import { ModeParams, ModeSettings, TAG } from '../schemas.js';

const SettingsPatchBody = {
  ...SettingsPatch,
  examples: [{ payments_enabled: true, platform_fee: { percent_bps: 500, fixed_amount: 30 }, checkout_success_url: 'https://shop.example.com/thanks' }],
};

export const updateSettingsRoute: RouteModule = (app, services) => {
  app.patch(
    '/marketplaces/:id/modes/:mode/settings',
    {
      schema: {
        tags: [TAG],
        summary: "Update a mode's settings",
        description:
          'Fields sent replace their stored values; fields left out keep theirs. platform_fee is replaced as a whole object. ' +
          'Needs the owner, admin or developer role (403 permission_denied otherwise).',
        params: ModeParams,
        body: SettingsPatchBody,
        response: { 200: ModeSettings },
      },
    },
    async (request) =>
      updateModeSettings(services, request.principal, { marketplaceId: request.params.id, mode: request.params.mode }, request.body),
  );
};
