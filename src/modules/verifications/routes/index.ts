// The verification routes (secret key).
import type { RouteModule } from '../../../contracts/wiring.js';
import { approveVerificationRoute } from './approve.js';
import { createVerificationRoute } from './create.js';
import { listVerificationsRoute } from './list.js';
import { rejectVerificationRoute } from './reject.js';
import { retrieveVerificationRoute } from './retrieve.js';

export const verificationRoutes: RouteModule[] = [
  createVerificationRoute,
  listVerificationsRoute,
  retrieveVerificationRoute,
  approveVerificationRoute,
  rejectVerificationRoute,
];
