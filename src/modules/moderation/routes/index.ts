// The trust and safety routes (secret key): flags and moderation actions.
import type { RouteModule } from '../../../contracts/wiring.js';
import { createFlagRoute } from './create-flag.js';
import { createModerationActionRoute } from './create-moderation-action.js';
import { listFlagsRoute } from './list-flags.js';
import { listModerationActionsRoute } from './list-moderation-actions.js';
import { resolveFlagRoute } from './resolve-flag.js';
import { retrieveFlagRoute } from './retrieve-flag.js';
import { retrieveModerationActionRoute } from './retrieve-moderation-action.js';

export const moderationRoutes: RouteModule[] = [
  createFlagRoute,
  listFlagsRoute,
  retrieveFlagRoute,
  resolveFlagRoute,
  createModerationActionRoute,
  listModerationActionsRoute,
  retrieveModerationActionRoute,
];
