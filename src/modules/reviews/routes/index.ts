// The review operations (secret key).
import type { RouteModule } from '../../../contracts/wiring.js';
import { createReviewRoute } from './create.js';
import { listReviewsRoute } from './list.js';
import { removeReviewRoute } from './remove.js';
import { retrieveReviewRoute } from './retrieve.js';

export const reviewRoutes: RouteModule[] = [createReviewRoute, listReviewsRoute, retrieveReviewRoute, removeReviewRoute];
