// What the marketplaces module declares for the composition root to assemble (its manifest lists
// it): the prefixes of its ids. The `declare module`s make each kind a checked IdKind.


export const MARKETPLACE_ID_PREFIXES = {
  marketplace: 'mkt',
  apiKey: 'key',
} as const;

type MarketplaceIdPrefixes = typeof MARKETPLACE_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends MarketplaceIdPrefixes {}
}
