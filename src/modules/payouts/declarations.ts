// What the payouts module declares for the composition root to assemble (its manifest lists it):
// its error codes with their HTTP statuses, the prefix of its ids and its event types with their
// catalog entries. The `declare module`s make each a checked ErrorCode, IdKind and EventType.
import { eventGroup, type EventTypesOf } from '../../contracts/events.js';
import type { CodesOf } from '../../contracts/wiring.js';
import { Payout } from './schemas.js';

export const PAYOUT_ERROR_CODES = {
  /** POST /v1/payouts for a seller whose available balance is 0 or less. */
  payout_nothing_available: 409,
} as const;

export const PAYOUT_ID_PREFIXES = {
  payout: 'po',
} as const;

export const PAYOUT_EVENT_TYPES = [
  // Rank 95: after the payments' refunds (90), before verifications (100).
  eventGroup({ objectName: 'Payout', object: Payout, rank: 95 }, {
    'payout.created': ["A payout was created: a seller's available balance, by a scheduled run or POST /v1/payouts (docs/payouts.md)."],
    'payout.paid': ['The processor made the payout (a transfer to the seller\'s account).'],
    'payout.failed': ['The processor refused the payout (or reported it failed after it was paid): its amount is back in the seller\'s available balance; `failure_message` says why.'],
    'payout.canceled': ['A pending payout was canceled: its amount is back in the seller\'s available balance.'],
  }),
] as const;

type PayoutErrorCodes = CodesOf<typeof PAYOUT_ERROR_CODES>;
declare module '../../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleErrorCodes extends PayoutErrorCodes {}
}

type PayoutIdPrefixes = typeof PAYOUT_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends PayoutIdPrefixes {}
}

type PayoutEventTypes = EventTypesOf<typeof PAYOUT_EVENT_TYPES>;
declare module '../../contracts/events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleEventTypes extends PayoutEventTypes {}
}
