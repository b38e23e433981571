// Processor onboarding of sellers. The first link
// creates the seller's account at the processor (payouts become pending); completing onboarding
// enables payouts. What is processor-specific (the account, the page) is the driver's
// (src/app/wiring.ts): the simulated processor (test mode) serves its own onboarding page;
// Stripe's is its hosted Connect onboarding (an account link).
import { newId } from '../../ids.js';
import { modeNow } from '../../scope.js';
import type { OperationContext } from '../../contracts/context.js';
import { processorFor, type ConnectedProcessor } from '../marketplaces/index.js';
import { ProcessorDeclined } from '../../contracts/processor.js';
import { processorCallContext } from '../../contracts/processor-calls.js';
import { requireSeller, setSellerPayouts } from '../sellers/index.js';
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
      processorCallContext(ctx, ctx.scope, processor.credentials),
      { linkId, sellerId, account, returnUrl: body.return_url, refreshUrl: body.refresh_url },
    );
  } catch (error) {
    if (error instanceof ProcessorDeclined) throw new DomainError('processor_error', `The payment processor refused to onboard the seller: ${error.message}`);
    throw new DomainError('processor_error', 'The payment processor could not be reached; try again.');
  }
}
