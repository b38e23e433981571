// The reviews module's manifest (src/contracts/wiring.ts).
import type { ModuleManifest } from '../../contracts/wiring.js';
import { reviewsErasure } from './erasure.js';
import { findReviewForShare, removeReviewInTx, REVIEW_WINDOW_TIMER, reviewWindowTimer } from './operations.js';
import { reviewRoutes } from './routes/index.js';

export const reviewsModule: ModuleManifest = {
  name: 'reviews',
  tables: ['reviews'],
  routes: { secret: reviewRoutes },
  timers: { [REVIEW_WINDOW_TIMER]: reviewWindowTimer },
  erasure: reviewsErasure,
  moderationTargets: { review: { find: findReviewForShare, actions: { remove_review: removeReviewInTx } } },
};
