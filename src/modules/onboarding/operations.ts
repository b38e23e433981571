// Processor onboarding of sellers. The first link
// creates the seller's account at the processor (payouts become pending); completing onboarding
// enables payouts. What is processor-specific (the account, the page) is the driver's
// (src/app/wiring.ts): the simulated processor (test mode) serves its own onboarding page;
// Stripe's is its hosted Connect onboarding (an account link).
import { newId } from '../../ids.js';
import { modeNow, type Scope } from '../../scope.js';
import type { OperationContext, ServiceContext } from '../../contracts/context.js';
import { processorFor, type ConnectedProcessor } from '../marketplaces/index.js';
import { ProcessorDeclined } from '../../contracts/processor.js';
import { newSimulatedAccount, simulatedPageTokenMatches } from '../../adapters/processors/simulated.js';
import { findSellerName, requireSeller, setSellerPayouts } from '../sellers/index.js';
import type { Queryable } from '../../db/db.js';
import { DomainError, errors } from '../../errors.js';
import * as queries from './queries.js';
import type { CreateOnboardingLinkBody, OnboardingLink } from './schemas.js';

export const ONBOARDING_LINK_TTL_MS = 60 * 60 * 1000;

/**
 * Refusals in order: 404 unknown seller, 409 erased seller, 403 no processor connection. The
 * processor is asked between two short transactions, with none open: for Stripe that is two
 * network calls (the account, made once per seller under an idempotency key of the seller's id,
 * and the account link).
 */
export async function createOnboardingLink(ctx: OperationContext, sellerId: string, body: CreateOnboardingLinkBody): Promise<OnboardingLink> {
  const { scope } = ctx;
  const { seller, processor } = await ctx.db.transaction(async (tx) => {
    const found = await requireSeller(tx, scope, sellerId);
    if (found.erased_at !== null) throw errors.invalidState('seller', 'erased', 'be onboarded');
    return { seller: found, processor: await processorFor(tx, ctx, scope) };
  });
  const id = newId('onboardingLink');
  const start = await startOnboardingAt(processor, ctx, id, sellerId, seller.processor_account, body);
  return ctx.db.transaction(async (tx) => {
    const current = await requireSeller(tx, scope, sellerId);
    if (current.erased_at !== null) throw errors.invalidState('seller', 'erased', 'be onboarded');
    const now = await modeNow(tx, ctx.clock, scope);
    if (current.processor_account === null) {
      await setSellerPayouts(tx, scope, current, 'pending', start.account, now);
    }
    const expiresAt = new Date(now.getTime() + ONBOARDING_LINK_TTL_MS);
    await queries.insertOnboardingLink(tx, scope, {
      id,
      seller_id: sellerId,
      return_url: body.return_url,
      refresh_url: body.refresh_url,
      expires_at: expiresAt,
      created_at: now,
      url: start.url,
    });
    return {
      object: 'onboarding_link',
      id,
      seller: sellerId,
      url: start.url,
      expires_at: expiresAt.toISOString(),
      created_at: now.toISOString(),
    };
  });
}

/**
 * The processor's side, with no transaction open. A refusal or an unreachable processor answers
 * 502 processor_error with what the processor said; nothing was recorded, so the call can be
 * repeated (the account is made under an idempotency key of the seller's id).
 */
async function startOnboardingAt(
  processor: ConnectedProcessor,
  ctx: OperationContext,
  linkId: string,
  sellerId: string,
  account: string | null,
  body: CreateOnboardingLinkBody,
) {
  try {
    return await processor.driver.startOnboarding(
      { credentials: processor.credentials, publicUrl: ctx.config.publicUrl, stripeApiUrl: ctx.config.stripeApiUrl },
      { linkId, sellerId, account, returnUrl: body.return_url, refreshUrl: body.refresh_url },
    );
  } catch (error) {
    if (error instanceof ProcessorDeclined) throw new DomainError('processor_error', `The payment processor refused to onboard the seller: ${error.message}`);
    throw new DomainError('processor_error', 'The payment processor could not be reached; try again.');
  }
}

export type SimulatedOnboardingPage =
  | { kind: 'missing' }
  | { kind: 'redirect'; url: string }
  | { kind: 'open'; sellerId: string; sellerName: string | null; expiresAt: Date };

/** A link that was used or has expired sends the seller to refresh_url, as a processor's would. */
function spent(link: queries.OnboardingLinkRow, now: Date): boolean {
  return link.used_at !== null || link.expires_at.getTime() <= now.getTime();
}

/** The link of the page, when `token` is the one its URL carries; else null (the page answers 404). */
async function linkOfPage(q: Queryable, linkId: string, token: string): Promise<queries.OnboardingLinkRow | null> {
  const link = await queries.selectOnboardingLinkById(q, linkId);
  return link && simulatedPageTokenMatches('onboarding', linkId, link.url, token) ? link : null;
}

/** The simulated processor's page (no API key: the link id and its token are the credential). */
export async function viewSimulatedOnboarding(ctx: ServiceContext, linkId: string, token: string): Promise<SimulatedOnboardingPage> {
  return ctx.db.transaction(async (tx) => {
    const link = await linkOfPage(tx, linkId, token);
    if (!link) return { kind: 'missing' };
    const scope: Scope = { marketplaceId: link.marketplace_id, mode: link.mode };
    const now = await modeNow(tx, ctx.clock, scope);
    if (spent(link, now)) return { kind: 'redirect', url: link.refresh_url };
    return { kind: 'open', sellerId: link.seller_id, sellerName: await findSellerName(tx, scope, link.seller_id), expiresAt: link.expires_at };
  });
}

/** The "Complete onboarding" button: payouts enabled, seller.payouts_updated, back to return_url. */
export async function completeSimulatedOnboarding(ctx: ServiceContext, linkId: string, token: string): Promise<SimulatedOnboardingPage> {
  return ctx.db.transaction(async (tx) => {
    const found = await linkOfPage(tx, linkId, token);
    if (!found) return { kind: 'missing' };
    const scope: Scope = { marketplaceId: found.marketplace_id, mode: found.mode };
    // Lock order: seller, then the link (erasure takes the seller first and deletes links).
    const seller = await requireSeller(tx, scope, found.seller_id);
    const link = await queries.lockOnboardingLink(tx, scope, linkId);
    if (!link) return { kind: 'missing' };
    const now = await modeNow(tx, ctx.clock, scope);
    if (spent(link, now) || seller.erased_at !== null) return { kind: 'redirect', url: link.refresh_url };
    await setSellerPayouts(tx, scope, seller, 'enabled', seller.processor_account ?? newSimulatedAccount(), now);
    await queries.updateOnboardingLinkUsed(tx, scope, link.id, now);
    return { kind: 'redirect', url: link.return_url };
  });
}
