// What the parties module declares for the composition root to assemble (its manifest lists it):
// the prefixes of its ids and its event types with their catalog entries (description, the object
// carried). The `declare module`s make each kind a checked IdKind and each type a checked
// EventType.
import { eventGroup, type EventTypesOf } from '../../contracts/events.js';
import { ModerationAction } from './moderation-actions.js';

export const PARTY_ID_PREFIXES = {
  moderationAction: 'mda',
} as const;

export const PARTY_EVENT_TYPES = [
  eventGroup({ objectName: 'ModerationAction', object: ModerationAction, rank: 160 }, {
    'moderation_action.created': ['A moderation action was recorded.'],
  }),
] as const;

type PartyIdPrefixes = typeof PARTY_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends PartyIdPrefixes {}
}

type PartyEventTypes = EventTypesOf<typeof PARTY_EVENT_TYPES>;
declare module '../../contracts/events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleEventTypes extends PartyEventTypes {}
}
