// The reputation module's manifest (src/contracts/wiring.ts).
import type { ModuleManifest } from '../../contracts/wiring.js';
import { REPUTATION_ID_PREFIXES, REPUTATION_EVENT_TYPES } from './declarations.js';
import { reputationRoutes } from './routes/index.js';

export const reputationModule: ModuleManifest = {
  name: 'reputation',
  tables: ['reputation_events'],
  idPrefixes: REPUTATION_ID_PREFIXES,
  eventTypes: REPUTATION_EVENT_TYPES,
  routes: { secret: reputationRoutes },
  tags: [{ name: 'Reputation', description: 'Reputation events that make up a party\'s standing (reviews, completed orders, disputes lost).', rank: 160 }],
};
