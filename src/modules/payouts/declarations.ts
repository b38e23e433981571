// What the payouts module declares for the composition root to assemble (its manifest lists it):
// its error codes with their HTTP statuses. The `declare module` makes each code a checked ErrorCode.
import type { CodesOf } from '../../contracts/wiring.js';

export const PAYOUT_ERROR_CODES = {
  /** POST /v1/payouts for a seller whose available balance is 0 or less. */
  payout_nothing_available: 409,
} as const;

type PayoutErrorCodes = CodesOf<typeof PAYOUT_ERROR_CODES>;
declare module '../../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleErrorCodes extends PayoutErrorCodes {}
}
