// The marketplaces module's manifest (src/contracts/wiring.ts): marketplaces, their modes' settings,
// API keys and processor connections under /manage/v1, and GET /v1/marketplace.
import type { ModuleManifest } from '../../contracts/wiring.js';
import { MARKETPLACE_ID_PREFIXES } from './declarations.js';
import { marketplaceManagementRoutes, marketplaceRoutes } from './routes/index.js';

export const marketplacesModule: ModuleManifest = {
  name: 'marketplaces',
  tables: ['marketplaces', 'marketplace_modes', 'api_keys', 'processor_connections'],
  idPrefixes: MARKETPLACE_ID_PREFIXES,
  routes: { secret: marketplaceRoutes, manageSignedIn: marketplaceManagementRoutes },
  tags: [{ name: 'Marketplace', description: 'The marketplace and mode an API key belongs to, with its settings.', rank: 10 }],
};
