// The media state machine (interface.md 3.2): pending from the start of an upload, ready once
// complete found the stored file to be what was declared. Deletion (by the API, by the upload's
// expiry, with its listing's removal or its seller's erasure) ends a media in any state: the row
// goes, so it has no state to move to and no row here; src/modules/media/removal.ts does it.
import { defineMachine } from '../../domain/state-machine.js';

export const MEDIA_STATUSES = ['pending', 'ready'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

export const MEDIA_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'] as const;
export type MediaContentType = (typeof MEDIA_CONTENT_TYPES)[number];

/** A pending media is deleted with its file when its upload grant ends uncompleted. */
export const MEDIA_UPLOAD_EXPIRE_TIMER = 'media.upload_expire';

export const MEDIA_MACHINE = defineMachine({
  subject: 'media',
  states: MEDIA_STATUSES,
  initial: ['pending'],
  operations: { complete: 'be completed' },
  rows: [{ from: ['pending'], operation: 'complete', who: ['platform'], to: 'ready', emits: ['media.ready'] }],
});
