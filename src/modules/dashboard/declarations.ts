// What the dashboard module declares for the composition root to assemble (its manifest lists it): its
// error codes with their HTTP statuses. The `declare module` makes each code a checked ErrorCode.
import type { CodesOf } from '../../contracts/wiring.js';

export const DASHBOARD_ERROR_CODES = {
  csrf_token_invalid: 403,
} as const;

type DashboardErrorCodes = CodesOf<typeof DASHBOARD_ERROR_CODES>;
declare module '../../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleErrorCodes extends DashboardErrorCodes {}
}
