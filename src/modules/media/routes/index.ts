// The media routes: the /v1 operations on a media (secret key) and the local store's file
// addresses (root). Starting an upload and listing a listing's media are flows (they find the
// listing first): their routes are src/flows/routes/add-listing-media.ts and list-listing-media.ts.
import type { RouteModule } from '../../../contracts/wiring.js';
import { completeMediaRoute } from './complete.js';
import { deleteMediaRoute } from './delete.js';
import { mediaFileRoutes } from './files.js';

export const mediaRoutes: RouteModule[] = [completeMediaRoute, deleteMediaRoute];

/** Outside /v1: PUT /uploads/{token} and GET /media/{token} of the local store. */
export const mediaFilePageRoutes: RouteModule[] = [mediaFileRoutes];
