// What the categories module declares for the composition root to assemble (its manifest lists it):
// its error codes with their HTTP statuses, the prefixes of its ids and its event types with their
// catalog entries (description, the object carried). The `declare module`s make each code a checked
// ErrorCode, each kind a checked IdKind and each type a checked EventType.
import { eventGroup, type EventTypesOf } from '../../contracts/events.js';
import type { CodesOf } from '../../contracts/wiring.js';
import { Category } from './schemas.js';

export const CATEGORY_ERROR_CODES = {
  schema_conflict: 409,
} as const;

export const CATEGORY_ID_PREFIXES = {
  category: 'cat',
} as const;

export const CATEGORY_EVENT_TYPES = [
  eventGroup({ objectName: 'Category', object: Category, rank: 30 }, {
    'category.created': ['A category was created.'],
    'category.updated': ['A category\'s fields or attribute schema changed.', 'previous_attributes'],
  }),
] as const;

type CategoryErrorCodes = CodesOf<typeof CATEGORY_ERROR_CODES>;
declare module '../../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleErrorCodes extends CategoryErrorCodes {}
}

type CategoryIdPrefixes = typeof CATEGORY_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends CategoryIdPrefixes {}
}

type CategoryEventTypes = EventTypesOf<typeof CATEGORY_EVENT_TYPES>;
declare module '../../contracts/events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleEventTypes extends CategoryEventTypes {}
}
