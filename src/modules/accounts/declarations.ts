// What the accounts module declares for the composition root to assemble (its manifest lists it): its
// error codes with their HTTP statuses. The `declare module` makes each code a checked ErrorCode.
import type { CodesOf } from '../../contracts/wiring.js';

export const ACCOUNT_ERROR_CODES = {
  invalid_credentials: 401,
  signup_closed: 403,
} as const;

type AccountErrorCodes = CodesOf<typeof ACCOUNT_ERROR_CODES>;
declare module '../../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleErrorCodes extends AccountErrorCodes {}
}
