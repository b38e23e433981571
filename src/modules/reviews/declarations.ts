// What the reviews module declares for the composition root to assemble (its manifest lists it):
// its error codes with their HTTP statuses, the prefixes of its ids and its event types with their
// catalog entries (description, the object carried). The `declare module`s make each code a checked
// ErrorCode, each kind a checked IdKind and each type a checked EventType.
import { eventGroup, type EventTypesOf } from '../../contracts/events.js';
import type { CodesOf } from '../../contracts/wiring.js';
import { Review } from './schemas.js';

export const REVIEW_ERROR_CODES = {
  already_reviewed: 409,
  review_window_closed: 409,
} as const;

export const REVIEW_ID_PREFIXES = {
  review: 'rev',
} as const;

export const REVIEW_EVENT_TYPES = [
  eventGroup({ objectName: 'Review', object: Review, rank: 110 }, {
    'review.created': ['A review was submitted; it stays hidden until both parties reviewed or the window closed.'],
    'review.visible': ['A review became visible.'],
    'review.removed': ['A review was removed by moderation.'],
  }),
] as const;

type ReviewErrorCodes = CodesOf<typeof REVIEW_ERROR_CODES>;
declare module '../../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleErrorCodes extends ReviewErrorCodes {}
}

type ReviewIdPrefixes = typeof REVIEW_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends ReviewIdPrefixes {}
}

type ReviewEventTypes = EventTypesOf<typeof REVIEW_EVENT_TYPES>;
declare module '../../contracts/events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleEventTypes extends ReviewEventTypes {}
}
