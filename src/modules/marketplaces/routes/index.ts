// The marketplace routes of the management API (signed-in users; src/app/routes.ts).
import type { RouteModule } from '../../../contracts/wiring.js';
import { connectProcessorRoute } from './connect-processor.js';
import { createApiKeyRoute } from './create-api-key.js';
import { createMarketplaceRoute } from './create-marketplace.js';
import { disconnectProcessorRoute } from './disconnect-processor.js';
import { listApiKeysRoute } from './list-api-keys.js';
import { listMarketplacesRoute } from './list-marketplaces.js';
import { retrieveCurrentMarketplaceRoute } from './retrieve-current-marketplace.js';
import { retrieveMarketplaceRoute } from './retrieve-marketplace.js';
import { retrieveProcessorRoute } from './retrieve-processor.js';
import { retrieveSettingsRoute } from './retrieve-settings.js';
import { revokeApiKeyRoute } from './revoke-api-key.js';
import { rollApiKeyRoute } from './roll-api-key.js';
import { updateSettingsRoute } from './update-settings.js';

export const marketplaceManagementRoutes: RouteModule[] = [
  createMarketplaceRoute,
  listMarketplacesRoute,
  retrieveMarketplaceRoute,
  retrieveSettingsRoute,
  updateSettingsRoute,
  connectProcessorRoute,
  retrieveProcessorRoute,
  disconnectProcessorRoute,
  createApiKeyRoute,
  listApiKeysRoute,
  rollApiKeyRoute,
  revokeApiKeyRoute,
];

/** The marketplace of the calling key (secret key): GET /v1/marketplace. */
export const marketplaceRoutes: RouteModule[] = [retrieveCurrentMarketplaceRoute];
