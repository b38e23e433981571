// What the accounts module declares for the composition root to assemble (its manifest lists it):
// its error codes with their HTTP statuses and the prefixes of its ids. The `declare module`s make
// each code a checked ErrorCode and each kind a checked IdKind.
import type { CodesOf } from '../../contracts/wiring.js';

export const ACCOUNT_ERROR_CODES = {
  invalid_credentials: 401,
  signup_closed: 403,
} as const;

export const ACCOUNT_ID_PREFIXES = {
  workspace: 'wsp',
  user: 'usr',
  managementToken: 'mgt',
} as const;

type AccountErrorCodes = CodesOf<typeof ACCOUNT_ERROR_CODES>;
declare module '../../errors.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleErrorCodes extends AccountErrorCodes {}
}

type AccountIdPrefixes = typeof ACCOUNT_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends AccountIdPrefixes {}
}
