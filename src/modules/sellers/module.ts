// The sellers module's manifest (src/contracts/wiring.ts).
import type { ModuleManifest } from '../../contracts/wiring.js';
import { SELLER_ID_PREFIXES, SELLER_EVENT_TYPES } from './declarations.js';
import { expandableSeller } from './expandable.js';
import { findSellerForShare, setSellerSuspension } from './operations.js';
import { sellerPublicRoutes, sellerRoutes } from './routes/index.js';

export const sellersModule: ModuleManifest = {
  name: 'sellers',
  tables: ['sellers', 'storefronts'],
  idPrefixes: SELLER_ID_PREFIXES,
  eventTypes: SELLER_EVENT_TYPES,
  routes: { publishable: sellerPublicRoutes, secret: sellerRoutes },
  expandable: [expandableSeller],
  moderationTargets: {
    seller: {
      find: findSellerForShare,
      actions: {
        suspend_seller: (tx, scope, id, reason, now) => setSellerSuspension(tx, scope, id, 'suspend', reason, now),
        unsuspend_seller: (tx, scope, id, reason, now) => setSellerSuspension(tx, scope, id, 'unsuspend', reason, now),
      },
    },
  },
  tags: [{ name: 'Sellers', description: 'Sellers with their storefront, public profile, suspension and processor onboarding.', rank: 50 }],
};
