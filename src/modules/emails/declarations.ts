// What the emails module declares for the composition root to assemble (its manifest lists it): the
// prefixes of its ids. The `declare module`s make each kind a checked IdKind.


export const EMAIL_ID_PREFIXES = {
  email: 'eml',
} as const;

type EmailIdPrefixes = typeof EMAIL_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends EmailIdPrefixes {}
}
