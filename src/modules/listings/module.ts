// The listings module's manifest (src/contracts/wiring.ts).
import type { ModuleManifest } from '../../contracts/wiring.js';
import { LISTING_ID_PREFIXES, LISTING_EVENT_TYPES } from './declarations.js';
import { expandableListing } from './expandable.js';
import { listingsErasure } from './erasure.js';
import { expireListingTimer, findListingForShare, LISTING_EXPIRE_TIMER, setListingRemoved } from './operations.js';
import { listingPublicRoutes, listingRoutes } from './routes/index.js';

export const listingsModule: ModuleManifest = {
  name: 'listings',
  tables: ['listings'],
  idPrefixes: LISTING_ID_PREFIXES,
  eventTypes: LISTING_EVENT_TYPES,
  routes: { publishable: listingPublicRoutes, secret: listingRoutes },
  expandable: [expandableListing],
  timers: { [LISTING_EXPIRE_TIMER]: expireListingTimer },
  // An order move locks its order, then its listing: erasure takes them in that order too.
  erasure: { participant: listingsErasure, after: ['orders and disputes'] },
  moderationTargets: { listing: { find: findListingForShare, actions: { remove_listing: setListingRemoved } } },
  tags: [{ name: 'Listings', description: 'What sellers offer: drafts, publishing, expiry and removal.', rank: 30 }],
};
