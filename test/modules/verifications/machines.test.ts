// The verification table and the seller's verification-state table walked from the tables
// themselves: every state × operation the table allows succeeds with its to-state and events (on
// the verification and on its seller); anything else answers 409 invalid_state naming the state
// and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidState, rowOf } from '../../../src/domain/state-machine.js';
import type { VerificationState } from '../../../src/modules/sellers/schemas.js';
import { SELLER_VERIFICATION_MACHINE } from '../../../src/modules/sellers/verification-state.js';
import type { VerificationStatus } from '../../../src/modules/verifications/schemas.js';
import { VERIFICATION_MACHINE, type VerificationDecision } from '../../../src/modules/verifications/status.js';
import { createSeller, storedEvents, type Json } from '../../helpers/factories.js';
import { startTestApp, type TestContext, type TestResponse } from '../../helpers/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const eventTypes = async (id: string) => (await storedEvents(ctx, id)).map((e) => e.type);
const start = (sellerId: string) => ctx.request(`/v1/sellers/${sellerId}/verifications`, { body: {} });

const DECIDE: Record<VerificationDecision, (id: string) => Promise<TestResponse>> = {
  approve: (id) => ctx.request(`/v1/verifications/${id}/approve`, { method: 'POST' }),
  reject: (id) => ctx.request(`/v1/verifications/${id}/reject`, { body: { reason: 'Walked.' } }),
};

/** A verification in each state, and its seller. */
const VERIFICATION_IN: Record<VerificationStatus, () => Promise<{ verification: Json; sellerId: string }>> = {
  pending: async () => {
    const seller = await createSeller(ctx);
    return { verification: (await start(seller.id)).body, sellerId: seller.id };
  },
  verified: async () => {
    const { verification, sellerId } = await VERIFICATION_IN.pending();
    return { verification: (await DECIDE.approve(verification.id)).body, sellerId };
  },
  rejected: async () => {
    const { verification, sellerId } = await VERIFICATION_IN.pending();
    return { verification: (await DECIDE.reject(verification.id)).body, sellerId };
  },
};

describe('every state × decision of the verification table', () => {
  const pairs = VERIFICATION_MACHINE.states.flatMap((state) => (Object.keys(DECIDE) as VerificationDecision[]).map((operation) => ({ state, operation })));

  it.each(pairs)('$operation from $state', async ({ state, operation }) => {
    const { verification, sellerId } = await VERIFICATION_IN[state]();
    expect(verification.status).toBe(state);
    const seller = (await ctx.request(`/v1/sellers/${sellerId}`)).body;
    const before = { verification: await eventTypes(verification.id), seller: await eventTypes(sellerId) };
    const res = await DECIDE[operation](verification.id);
    const row = rowOf(VERIFICATION_MACHINE, state, operation);
    if (row) {
      expect(res.status, res.text).toBe(200);
      expect(res.body.status).toBe(row.to);
      expect((await eventTypes(verification.id)).slice(before.verification.length)).toEqual(row.emits);
      // The seller's verification state follows, as its own table says.
      const followed = rowOf(SELLER_VERIFICATION_MACHINE, seller.verification.status as VerificationState, operation)!;
      expect((await ctx.request(`/v1/sellers/${sellerId}`)).body.verification.status).toBe(followed.to);
      expect((await eventTypes(sellerId)).slice(before.seller.length)).toEqual(followed.emits);
    } else {
      expect(res.status, res.text).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'invalid_state', message: invalidState(VERIFICATION_MACHINE, state, operation).message });
      expect(res.body.error.message).toMatch(new RegExp(`^The verification is ${state}; it cannot `));
      expect((await ctx.request(`/v1/verifications/${verification.id}`)).body.status).toBe(state);
      expect(await eventTypes(verification.id)).toEqual(before.verification);
      expect(await eventTypes(sellerId)).toEqual(before.seller);
    }
  });
});

describe("every state of the seller's verification table × start", () => {
  const SELLER_IN: Record<VerificationState, () => Promise<string>> = {
    unverified: async () => (await createSeller(ctx)).id,
    pending: async () => (await VERIFICATION_IN.pending()).sellerId,
    verified: async () => (await VERIFICATION_IN.verified()).sellerId,
    rejected: async () => (await VERIFICATION_IN.rejected()).sellerId,
  };

  it.each(SELLER_VERIFICATION_MACHINE.states.map((state) => ({ state })))('start from $state', async ({ state }) => {
    const sellerId = await SELLER_IN[state]();
    const before = await eventTypes(sellerId);
    const res = await start(sellerId);
    const row = rowOf(SELLER_VERIFICATION_MACHINE, state, 'start');
    if (row) {
      expect(res.status, res.text).toBe(201);
      expect(res.body.status).toBe('pending');
      expect((await ctx.request(`/v1/sellers/${sellerId}`)).body.verification.status).toBe(row.to);
      expect((await eventTypes(sellerId)).slice(before.length)).toEqual(row.emits);
    } else {
      expect(res.status, res.text).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'invalid_state', message: invalidState(SELLER_VERIFICATION_MACHINE, state, 'start').message });
      expect(res.body.error.message).toBe(`The seller is ${state} (verification); it cannot start a verification.`);
      expect(await eventTypes(sellerId)).toEqual(before);
    }
  });
});
