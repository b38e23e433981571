// The dashboard's routes of the management API, by the scope they live in (src/app/routes.ts).
import type { RouteModule } from '../../../contracts/wiring.js';
import { confirmPasswordResetRoute } from './confirm-password-reset.js';
import { createSessionRoute } from './create-session.js';
import { deleteSessionRoute } from './delete-session.js';
import { requestPasswordResetRoute } from './request-password-reset.js';
import { retrieveSessionRoute } from './retrieve-session.js';

/** Without credentials: logging in, and the forgotten password. */
export const dashboardPublicRoutes: RouteModule[] = [createSessionRoute, requestPasswordResetRoute, confirmPasswordResetRoute];

/** With the session cookie only. */
export const dashboardSessionRoutes: RouteModule[] = [retrieveSessionRoute, deleteSessionRoute];
