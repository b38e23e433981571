// Processor onboarding of sellers (interface.md 4.2 rule 2, contract 5, 10). The first link
// creates the seller's account at the processor (payouts become pending); completing onboarding
// enables payouts. The simulated processor (test mode) serves its own onboarding page; the Stripe
// processor arrives with payments and answers processor_not_connected until then.
import { errors } from '../../errors.js';
import { newId, randomBase62 } from '../../ids.js';
import { modeNow, type Scope } from '../../scope.js';
import type { OnboardingDeps, PartyDeps } from '../parties/deps.js';
import { lockSeller, setSellerPayouts } from '../sellers/operations.js';
import * as queries from './queries.js';
import type { OnboardingLink, OnboardingLinkBody } from './schemas.js';

export const ONBOARDING_LINK_TTL_MS = 60 * 60 * 1000;

export const simulatedOnboardingPath = (linkId: string) => `/simulated/onboarding/${linkId}`;

const newSimulatedAccount = () => `acct_sim_${randomBase62(16)}`;

/** Refusals in order: 404 unknown seller, 409 erased seller, 403 no usable processor connection. */
export async function createOnboardingLink(
  deps: OnboardingDeps,
  scope: Scope,
  sellerId: string,
  body: OnboardingLinkBody,
): Promise<OnboardingLink> {
  return deps.db.transaction(async (tx) => {
    const seller = await lockSeller(tx, scope, sellerId);
    if (seller.erased_at !== null) throw errors.invalidState('seller', 'erased', 'be onboarded');
    const provider = await queries.processorProvider(tx, scope);
    if (provider === null) {
      throw errors.forbidden('processor_not_connected', 'This mode has no payment processor connection; connect one in the dashboard first.');
    }
    if (provider === 'stripe') {
      throw errors.forbidden(
        'processor_not_connected',
        'Seller onboarding through the Stripe connection is not available in this version; use the simulated processor in test mode.',
      );
    }
    const now = await modeNow(tx, deps.clock, scope);
    if (seller.processor_account === null) {
      await setSellerPayouts(tx, scope, seller, 'pending', newSimulatedAccount(), now);
    }
    const id = newId('onboardingLink');
    const expiresAt = new Date(now.getTime() + ONBOARDING_LINK_TTL_MS);
    await queries.insertOnboardingLink(tx, scope, {
      id,
      seller_id: sellerId,
      return_url: body.return_url,
      refresh_url: body.refresh_url,
      expires_at: expiresAt,
      created_at: now,
    });
    return {
      object: 'onboarding_link',
      id,
      seller: sellerId,
      url: `${deps.config.publicUrl}${simulatedOnboardingPath(id)}`,
      expires_at: expiresAt.toISOString(),
      created_at: now.toISOString(),
    };
  });
}

export type SimulatedOnboardingPage =
  | { kind: 'missing' }
  | { kind: 'redirect'; url: string }
  | { kind: 'open'; sellerId: string; expiresAt: Date };

/** A link that was used or has expired sends the seller to refresh_url, as a processor's would. */
function spent(link: queries.OnboardingLinkRow, now: Date): boolean {
  return link.used_at !== null || link.expires_at.getTime() <= now.getTime();
}

export async function viewSimulatedOnboarding(deps: PartyDeps, linkId: string): Promise<SimulatedOnboardingPage> {
  return deps.db.transaction(async (tx) => {
    const link = await queries.findOnboardingLinkById(tx, linkId);
    if (!link) return { kind: 'missing' };
    const now = await modeNow(tx, deps.clock, { marketplaceId: link.marketplace_id, mode: link.mode });
    if (spent(link, now)) return { kind: 'redirect', url: link.refresh_url };
    return { kind: 'open', sellerId: link.seller_id, expiresAt: link.expires_at };
  });
}

/** The "Complete onboarding" button: payouts enabled, seller.payouts_updated, back to return_url. */
export async function completeSimulatedOnboarding(deps: PartyDeps, linkId: string): Promise<SimulatedOnboardingPage> {
  return deps.db.transaction(async (tx) => {
    const found = await queries.findOnboardingLinkById(tx, linkId);
    if (!found) return { kind: 'missing' };
    const scope: Scope = { marketplaceId: found.marketplace_id, mode: found.mode };
    // Lock order: seller, then the link (erasure takes the seller first and deletes links).
    const seller = await lockSeller(tx, scope, found.seller_id);
    const link = await queries.findOnboardingLinkById(tx, linkId, true);
    if (!link) return { kind: 'missing' };
    const now = await modeNow(tx, deps.clock, scope);
    if (spent(link, now) || seller.erased_at !== null) return { kind: 'redirect', url: link.refresh_url };
    await setSellerPayouts(tx, scope, seller, 'enabled', seller.processor_account ?? newSimulatedAccount(), now);
    await queries.markOnboardingLinkUsed(tx, scope, link.id, now);
    return { kind: 'redirect', url: link.return_url };
  });
}
