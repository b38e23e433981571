// The media module's public surface: what other modules, the flows and the composition root may
// use of it (docs/architecture.md, Import rules). Everything else in the folder is the module's own.
export { deleteMediaOfListing, readyMediaOfListings } from './listing-media.js';
export { listMediaOfListing, startMediaUpload, type ListingOfMedia } from './operations.js';
export { CreateMediaBody, ListMediaQuery, Media, MediaList, MediaUpload } from './schemas.js';
