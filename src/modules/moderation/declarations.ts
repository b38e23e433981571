// What the moderation module declares for the composition root to assemble (its manifest lists it):
// the prefixes of its ids and its event types with their catalog entries (description, the object
// carried). The `declare module`s make each kind a checked IdKind and each type a checked
// EventType.
import { eventGroup, type EventTypesOf } from '../../contracts/events.js';
import { Flag } from './schemas.js';

export const MODERATION_ID_PREFIXES = {
  flag: 'flg',
} as const;

export const MODERATION_EVENT_TYPES = [
  eventGroup({ objectName: 'Flag', object: Flag, rank: 150 }, {
    'flag.created': ['A flag was raised against a listing, review, seller or buyer.'],
    'flag.resolved': ['A flag was resolved.'],
  }),
] as const;

type ModerationIdPrefixes = typeof MODERATION_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends ModerationIdPrefixes {}
}

type ModerationEventTypes = EventTypesOf<typeof MODERATION_EVENT_TYPES>;
declare module '../../contracts/events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleEventTypes extends ModerationEventTypes {}
}
