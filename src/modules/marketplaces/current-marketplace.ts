// The marketplace and mode of the key.
import type { ApiKeyContext } from '../../contracts/context.js';
import type { Marketplace } from './schemas.js';

/**
 * Answers from the authenticated key's context, which the key cache holds (docs/performance.md
 * R5), so it takes the key rather than an operation context.
 */
export function retrieveMarketplace(key: ApiKeyContext): Marketplace {
  const { marketplace, scope, settings, readOnly } = key;
  return {
    object: 'marketplace',
    id: marketplace.id,
    name: marketplace.name,
    currency: marketplace.currency,
    livemode: scope.mode === 'live',
    read_only: readOnly,
    settings,
    created_at: marketplace.created_at,
  };
}
