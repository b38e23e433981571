// What the reputation module declares for the composition root to assemble (its manifest lists it):
// the prefixes of its ids and its event types with their catalog entries (description, the object
// carried). The `declare module`s make each kind a checked IdKind and each type a checked
// EventType.
import { eventGroup, type EventTypesOf } from '../../contracts/events.js';
import { ReputationEvent } from './schemas.js';

export const REPUTATION_ID_PREFIXES = {
  reputationEvent: 'rep',
} as const;

export const REPUTATION_EVENT_TYPES = [
  eventGroup({ objectName: 'ReputationEvent', object: ReputationEvent, rank: 120 }, {
    'reputation_event.created': ['A reputation event was recorded for a party.'],
    'reputation_event.voided': ['A reputation event was voided and no longer counts.'],
  }),
] as const;

type ReputationIdPrefixes = typeof REPUTATION_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends ReputationIdPrefixes {}
}

type ReputationEventTypes = EventTypesOf<typeof REPUTATION_EVENT_TYPES>;
declare module '../../contracts/events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleEventTypes extends ReputationEventTypes {}
}
