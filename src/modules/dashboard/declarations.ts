// What the dashboard module declares for the composition root to assemble (its manifest lists it):
// its error codes with their HTTP statuses and the prefixes of its ids. The `declare module`s make
// each code a checked ErrorCode and each kind a checked IdKind.
import type { CodesOf } from '../../contracts/wiring.js';

export const DASHBOARD_ERROR_CODES = {
  csrf_token_invalid: 403,
} as const;

export const DASHBOARD_ID_PREFIXES = {
  dashboardSession: 'dss',
} as const;

type DashboardErrorCodes = CodesOf<typeof DASHBOARD_ERROR_CODES>;
declare module '../../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleErrorCodes extends DashboardErrorCodes {}
}

type DashboardIdPrefixes = typeof DASHBOARD_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends DashboardIdPrefixes {}
}
