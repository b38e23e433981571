// What the media module declares for the composition root to assemble (its manifest lists it): its
// error codes with their HTTP statuses, the prefixes of its ids and its event types with their
// catalog entries (description, the object carried). The `declare module`s make each code a checked
// ErrorCode, each kind a checked IdKind and each type a checked EventType.
import { eventGroup, type EventTypesOf } from '../../contracts/events.js';
import type { CodesOf } from '../../contracts/wiring.js';
import { Media } from './schemas.js';

export const MEDIA_ERROR_CODES = {
  upload_missing: 409,
  upload_mismatch: 409,
  upload_already_received: 409,
} as const;

export const MEDIA_ID_PREFIXES = {
  media: 'med',
} as const;

export const MEDIA_EVENT_TYPES = [
  eventGroup({ objectName: 'Media', object: Media, rank: 50 }, {
    'media.ready': ['An uploaded file was checked and is now served.'],
    'media.deleted': ['A media file was deleted.'],
  }),
] as const;

type MediaErrorCodes = CodesOf<typeof MEDIA_ERROR_CODES>;
declare module '../../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleErrorCodes extends MediaErrorCodes {}
}

type MediaIdPrefixes = typeof MEDIA_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends MediaIdPrefixes {}
}

type MediaEventTypes = EventTypesOf<typeof MEDIA_EVENT_TYPES>;
declare module '../../contracts/events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleEventTypes extends MediaEventTypes {}
}
