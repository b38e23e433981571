// The onboarding module's side of the simulated processor's onboarding page
// (src/adapters/processors/simulated/onboarding-page.ts): the link found by its id alone (the page
// has no API key), checked with the page's token check, and the "Complete onboarding" button, whose
// enabling of the payouts is the step the root hands it (src/flows/enable-seller-payouts.ts).
import type { Queryable, Tx } from '../../db/db.js';
import { modeNow, type Scope } from '../../scope.js';
import type { ServiceContext } from '../../contracts/context.js';
import type { OnboardingPage, OnboardingPageSide, PageTokenCheck } from '../../contracts/simulated-pages.js';
import { findSellerName, requireSeller, type SellerRow } from '../sellers/index.js';
import * as queries from './queries.js';

/** The seller's payouts enabled, in the page's transaction (sellers, then what follows in payments). */
export type EnablePayouts = (tx: Tx, scope: Scope, seller: SellerRow, processorAccount: string, now: Date) => Promise<unknown>;

/** A link that was used or has expired sends the seller to refresh_url, as a processor's would. */
function spent(link: queries.OnboardingLinkRow, now: Date): boolean {
  return link.used_at !== null || link.expires_at.getTime() <= now.getTime();
}

/** The link of the page, when the page's token is the one its URL carries; else null (the page answers 404). */
async function linkOfPage(q: Queryable, linkId: string, check: PageTokenCheck): Promise<queries.OnboardingLinkRow | null> {
  const link = await queries.selectOnboardingLinkById(q, linkId);
  return link && check(link.url) ? link : null;
}

/** The page (no API key: the link id and its token are the credential). */
async function view(ctx: ServiceContext, linkId: string, check: PageTokenCheck): Promise<OnboardingPage> {
  return ctx.db.transaction(async (tx) => {
    const link = await linkOfPage(tx, linkId, check);
    if (!link) return { kind: 'missing' };
    const scope: Scope = { marketplaceId: link.marketplace_id, mode: link.mode };
    const now = await modeNow(tx, ctx.clock, scope);
    if (spent(link, now)) return { kind: 'redirect', url: link.refresh_url };
    return { kind: 'open', sellerId: link.seller_id, sellerName: await findSellerName(tx, scope, link.seller_id), expiresAt: link.expires_at };
  });
}

/** The "Complete onboarding" button: payouts enabled, seller.payouts_updated, back to return_url. */
async function complete(enablePayouts: EnablePayouts, ctx: ServiceContext, linkId: string, check: PageTokenCheck): Promise<OnboardingPage> {
  return ctx.db.transaction(async (tx) => {
    const found = await linkOfPage(tx, linkId, check);
    if (!found) return { kind: 'missing' };
    const scope: Scope = { marketplaceId: found.marketplace_id, mode: found.mode };
    // Lock order: seller, then the link (erasure takes the seller first and deletes links).
    const seller = await requireSeller(tx, scope, found.seller_id);
    const link = await queries.lockOnboardingLink(tx, scope, linkId);
    if (!link) return { kind: 'missing' };
    const now = await modeNow(tx, ctx.clock, scope);
    if (spent(link, now) || seller.erased_at !== null) return { kind: 'redirect', url: link.refresh_url };
    await enablePayouts(tx, scope, seller, seller.processor_account ?? ctx.hooks.simulated.newAccount(), now);
    await queries.updateOnboardingLinkUsed(tx, scope, link.id, now);
    return { kind: 'redirect', url: link.return_url };
  });
}

/** The page's side, the payouts enabled by `enablePayouts` (the root passes the flow). */
export function onboardingPageSide(enablePayouts: EnablePayouts): OnboardingPageSide {
  return { view, complete: (ctx, linkId, check) => complete(enablePayouts, ctx, linkId, check) };
}
