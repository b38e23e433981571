// The media module's manifest (src/contracts/wiring.ts).
import type { ModuleManifest } from '../../contracts/wiring.js';
import { MEDIA_ERROR_CODES, MEDIA_ID_PREFIXES, MEDIA_EVENT_TYPES } from './declarations.js';
import { mediaErasure } from './erasure.js';
import { expireMediaUploadTimer } from './operations.js';
import { mediaFileDeleteJob } from './removal.js';
import { mediaFilePageRoutes, mediaRoutes } from './routes/index.js';
import { MEDIA_UPLOAD_EXPIRE_TIMER } from './status.js';

export const mediaModule: ModuleManifest = {
  name: 'media',
  tables: ['media'],
  idPrefixes: MEDIA_ID_PREFIXES,
  eventTypes: MEDIA_EVENT_TYPES,
  routes: { secret: mediaRoutes, root: mediaFilePageRoutes },
  timers: { [MEDIA_UPLOAD_EXPIRE_TIMER]: expireMediaUploadTimer },
  jobKinds: [mediaFileDeleteJob],
  erasure: { participant: mediaErasure },
  errorCodes: MEDIA_ERROR_CODES,
  tags: [{ name: 'Media', description: 'Listing images: signed uploads, checked files, signed links.', rank: 40 }],
};
