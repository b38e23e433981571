// What the verifications module declares for the composition root to assemble (its manifest lists
// it): the prefixes of its ids and its event types with their catalog entries (description, the
// object carried). The `declare module`s make each kind a checked IdKind and each type a checked
// EventType.
import { eventGroup, type EventTypesOf } from '../../contracts/events.js';
import { Verification } from './schemas.js';

export const VERIFICATION_ID_PREFIXES = {
  verification: 'ver',
} as const;

export const VERIFICATION_EVENT_TYPES = [
  eventGroup({ objectName: 'Verification', object: Verification, rank: 100 }, {
    'verification.created': ['A seller verification was started.'],
    'verification.updated': ['A verification was approved or rejected.', 'previous_attributes'],
  }),
] as const;

type VerificationIdPrefixes = typeof VERIFICATION_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends VerificationIdPrefixes {}
}

type VerificationEventTypes = EventTypesOf<typeof VERIFICATION_EVENT_TYPES>;
declare module '../../contracts/events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleEventTypes extends VerificationEventTypes {}
}
