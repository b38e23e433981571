// /v1 as the signed-in member: the dashboard holds no API key. A request with the session cookie
// and no Authorization names a marketplace and mode in Dashboard-Marketplace and Dashboard-Mode;
// if the user is a member of its workspace, it runs with the powers of that mode's secret key,
// bounded by the role: a viewer only reads. A marketplace of another workspace is answered as
// missing, as the management API answers other tenants' ids (src/modules/accounts/access.ts).
import type { FastifyRequest } from 'fastify';
import { DomainError, errors } from '../../errors.js';
import { readOnlyReason } from '../../http/api-key-cache.js';
import { type ApiKeyContext } from '../../contracts/context.js';
import type { SessionAuthenticator } from '../../http/api-auth.js';
import { MODES, type Mode } from '../../scope.js';
import type { ServiceContext } from '../../contracts/context.js';
import { withDefaults } from '../../contracts/settings.js';
import { memberOfMarketplace, type BillingState } from '../accounts/index.js';
import { findMarketplaceMode, type MarketplaceModeRow } from '../marketplaces/index.js';
import { sessionOfRequest } from './request-session.js';

export const MARKETPLACE_HEADER = 'Dashboard-Marketplace';
export const MODE_HEADER = 'Dashboard-Mode';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function contextOf(
  access: { workspaceId: string; billingState: BillingState },
  marketplace: MarketplaceModeRow,
  marketplaceId: string,
  mode: Mode,
): ApiKeyContext {
  return {
    // Rate limits are kept per key; the dashboard's bucket is the mode's, shared by its members.
    keyId: `dashboard:${marketplaceId}:${mode}`,
    keyType: 'secret',
    expiresAtMs: null,
    scope: { marketplaceId, mode },
    workspaceId: access.workspaceId,
    billingState: access.billingState,
    marketplace: { id: marketplaceId, name: marketplace.name, currency: marketplace.currency, created_at: marketplace.created_at.toISOString() },
    settings: withDefaults(mode, marketplace.settings),
    readOnly: readOnlyReason(access.billingState, mode),
  };
}

export function dashboardApiAccess(service: ServiceContext): SessionAuthenticator {
  return async (request) => {
    const session = await sessionOfRequest(request, service);
    if (!session) return null;
    const marketplaceId = header(request, MARKETPLACE_HEADER);
    if (marketplaceId === undefined || marketplaceId.length > 100) {
      throw errors.invalidRequest(`With the dashboard session, name the marketplace (mkt_…) in the ${MARKETPLACE_HEADER} header.`, MARKETPLACE_HEADER);
    }
    const mode = header(request, MODE_HEADER);
    if (mode === undefined || !(MODES as readonly string[]).includes(mode)) {
      throw errors.invalidRequest(`With the dashboard session, name the mode in the ${MODE_HEADER} header: test or live.`, MODE_HEADER);
    }
    // The member's access is the accounts module's, the marketplace and its mode the marketplaces
    // module's: both reads are issued at once, so the request still waits for one of them.
    const [access, marketplace] = await Promise.all([
      memberOfMarketplace(service.db, session.userId, marketplaceId),
      findMarketplaceMode(service.db, { marketplaceId, mode: mode as Mode }),
    ]);
    if (!access || !marketplace) throw errors.missing('marketplace', marketplaceId, MARKETPLACE_HEADER);
    const refuseWrites =
      access.role === 'viewer'
        ? new DomainError('permission_denied', 'Your role (viewer) reads only: it does not allow requests that change anything.')
        : null;
    return { context: contextOf(access, marketplace, marketplaceId, mode as Mode), refuseWrites };
  };
}
