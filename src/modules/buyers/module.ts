// The buyers module's manifest (src/contracts/wiring.ts).
import type { ModuleManifest } from '../../contracts/wiring.js';
import { BUYER_ID_PREFIXES, BUYER_EVENT_TYPES } from './declarations.js';
import { expandableBuyer } from './expandable.js';
import { findBuyerForShare } from './operations.js';
import { buyerRoutes } from './routes/index.js';

export const buyersModule: ModuleManifest = {
  name: 'buyers',
  tables: ['buyers'],
  idPrefixes: BUYER_ID_PREFIXES,
  eventTypes: BUYER_EVENT_TYPES,
  routes: { secret: buyerRoutes },
  expandable: [expandableBuyer],
  // A buyer can be flagged; no moderation action applies to one (docs/trust-and-safety.md).
  moderationTargets: { buyer: { find: findBuyerForShare, actions: {} } },
  tags: [{ name: 'Buyers', description: 'Buyers: the parties that order.', rank: 60 }],
};
