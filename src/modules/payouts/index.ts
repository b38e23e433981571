// The payouts module's public surface (docs/payouts.md): the flows read a seller's schedule, lock
// and write payouts; the composition root and the event catalog use the rest.
export { createPayout, effectiveSchedule, payoutTransfersBetween, effectiveSchedules, lockSellerPayouts, newPayoutId, nextPayoutAt, nothingAvailable, requireSellerExists, uncontainedLines } from './operations.js';
export type { EffectiveSchedule, NewPayout } from './operations.js';
export { isRunDay, nextRunAt, startOfDay, DAY_MS } from './schedule.js';
export { Payout, PayoutLine, CreatePayoutBody } from './schemas.js';
export { PAYOUT_MACHINE } from './machine.js';
