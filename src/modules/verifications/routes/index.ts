// The verification routes (secret key).
import type { RouteModule } from '../../../http/types.js';
import { approveVerificationRoute } from './approve.js';
import { createVerificationRoute } from './create.js';
import { listVerificationsRoute } from './list.js';
import { rejectVerificationRoute } from './reject.js';
import { retrieveVerificationRoute } from './retrieve.js';

export const verificationRoutes: RouteModule = (app, services) => {
  createVerificationRoute(app, services);
  listVerificationsRoute(app, services);
  retrieveVerificationRoute(app, services);
  approveVerificationRoute(app, services);
  rejectVerificationRoute(app, services);
};
