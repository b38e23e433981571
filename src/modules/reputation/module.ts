// The reputation module's manifest (src/contracts/wiring.ts).
import type { ModuleManifest } from '../../contracts/wiring.js';
import { reputationRoutes } from './routes/index.js';

export const reputationModule: ModuleManifest = {
  name: 'reputation',
  tables: ['reputation_events'],
  routes: { secret: reputationRoutes },
  tags: [{ name: 'Reputation', description: 'Reputation events that make up a party\'s standing (reviews, completed orders, disputes lost).', rank: 160 }],
};
