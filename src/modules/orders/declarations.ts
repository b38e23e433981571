// What the orders module declares for the composition root to assemble (its manifest lists it): its
// error codes with their HTTP statuses. The `declare module` makes each code a checked ErrorCode.
import type { CodesOf } from '../../contracts/wiring.js';

export const ORDER_ERROR_CODES = {
  dispute_window_closed: 409,
} as const;

type OrderErrorCodes = CodesOf<typeof ORDER_ERROR_CODES>;
declare module '../../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleErrorCodes extends OrderErrorCodes {}
}
