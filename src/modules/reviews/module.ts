// The reviews module's manifest (src/contracts/wiring.ts).
import type { ModuleManifest } from '../../contracts/wiring.js';
import { REVIEW_ERROR_CODES, REVIEW_ID_PREFIXES, REVIEW_EVENT_TYPES } from './declarations.js';
import { reviewsErasure } from './erasure.js';
import { findReviewForShare, removeReviewInTx, REVIEW_WINDOW_TIMER, reviewWindowTimer } from './operations.js';
import { reviewRoutes } from './routes/index.js';

export const reviewsModule: ModuleManifest = {
  name: 'reviews',
  tables: ['reviews'],
  idPrefixes: REVIEW_ID_PREFIXES,
  eventTypes: REVIEW_EVENT_TYPES,
  routes: { secret: reviewRoutes },
  timers: { [REVIEW_WINDOW_TIMER]: reviewWindowTimer },
  // A review locks its order first: erasure takes the orders' locks before the reviews'.
  erasure: { participant: reviewsErasure, after: ['orders and disputes'] },
  moderationTargets: { review: { find: findReviewForShare, actions: { remove_review: removeReviewInTx } } },
  errorCodes: REVIEW_ERROR_CODES,
  tags: [{ name: 'Reviews', description: 'Double-blind reviews of a completed order, both ways; moderation removes them.', rank: 150 }],
};
