// The media routes: the /v1 operations (secret key) and the local store's file addresses (root).
import type { RouteModule } from '../../../contracts/wiring.js';
import { completeMediaRoute } from './complete.js';
import { createMediaRoute } from './create.js';
import { deleteMediaRoute } from './delete.js';
import { mediaFileRoutes } from './files.js';
import { listMediaRoute } from './list.js';

export const mediaRoutes: RouteModule[] = [createMediaRoute, listMediaRoute, completeMediaRoute, deleteMediaRoute];

/** Outside /v1: PUT /uploads/{token} and GET /media/{token} of the local store. */
export const mediaFilePageRoutes: RouteModule[] = [mediaFileRoutes];
