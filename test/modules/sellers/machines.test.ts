// The seller's suspension and payouts tables walked from the tables themselves: every state ×
// operation the table allows succeeds with its to-state and events; anything else answers 409
// invalid_state naming the state and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidState, rowOf } from '../../../src/domain/state-machine.js';
import { setSellerPayouts } from '../../../src/modules/sellers/operations.js';
import { PAYOUTS_MACHINE, type ReportedPayoutsStatus } from '../../../src/modules/sellers/payouts.js';
import { lockSeller } from '../../../src/modules/sellers/queries.js';
import type { SellerStatus } from '../../../src/modules/sellers/schemas.js';
import { SUSPENSION_MACHINE, type SuspensionOperation } from '../../../src/modules/sellers/suspension.js';
import type { Scope } from '../../../src/scope.js';
import { createSeller, storedEvents, suspendSeller, type SellerObject } from '../../helpers/factories.js';
import { startTestApp, type TestContext, type TestResponse } from '../../helpers/harness.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const eventTypes = async (id: string) => (await storedEvents(ctx, id)).map((e) => e.type);

const SELLER_IN: Record<SellerStatus, () => Promise<SellerObject>> = {
  active: () => createSeller(ctx),
  suspended: async () => suspendSeller(ctx, (await createSeller(ctx)).id),
};

const TAKE: Record<SuspensionOperation, (id: string) => Promise<TestResponse>> = {
  suspend: (id) => ctx.request(`/v1/sellers/${id}/suspend`, { body: { reason: 'Walked.' } }),
  unsuspend: (id) => ctx.request(`/v1/sellers/${id}/unsuspend`, { body: {} }),
};

describe('every state × operation of the suspension table', () => {
  const pairs = SUSPENSION_MACHINE.states.flatMap((state) => (Object.keys(TAKE) as SuspensionOperation[]).map((operation) => ({ state, operation })));

  it.each(pairs)('$operation from $state', async ({ state, operation }) => {
    const seller = await SELLER_IN[state]();
    const before = await eventTypes(seller.id);
    const res = await TAKE[operation](seller.id);
    const row = rowOf(SUSPENSION_MACHINE, state, operation);
    if (row) {
      expect(res.status, res.text).toBe(200);
      expect(res.body.status).toBe(row.to);
      expect((await eventTypes(seller.id)).slice(before.length)).toEqual(row.emits);
    } else {
      expect(res.status, res.text).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'invalid_state', message: invalidState(SUSPENSION_MACHINE, state, operation).message });
      expect(res.body.error.message).toBe(`The seller is ${state}; it cannot ${SUSPENSION_MACHINE.operations[operation]}.`);
      expect((await ctx.request(`/v1/sellers/${seller.id}`)).body.status).toBe(state);
      expect(await eventTypes(seller.id)).toEqual(before);
    }
  });
});

describe('every state × report of the payouts table', () => {
  const reported: ReportedPayoutsStatus[] = ['pending', 'enabled', 'restricted'];
  const pairs = PAYOUTS_MACHINE.states.flatMap((state) => reported.map((status) => ({ state, status })));
  const scope = (): Scope => ({ marketplaceId: ctx.marketplaceId, mode: 'test' });

  it.each(pairs)('the processor reports $status while $state', async ({ state, status }) => {
    const seller = await createSeller(ctx);
    await ctx.db.query("UPDATE sellers SET payouts_status = $2, processor_account = 'acct_sim_walk' WHERE id = $1", [seller.id, state]);
    const row = rowOf(PAYOUTS_MACHINE, state, `report_${status}`);
    expect(row?.to).toBe(status);
    const before = await eventTypes(seller.id);
    const after = await ctx.db.transaction(async (tx) => {
      const locked = (await lockSeller(tx, scope(), seller.id))!;
      return setSellerPayouts(tx, scope(), locked, status, 'acct_sim_walk', new Date());
    });
    expect(after.payouts).toEqual({ status, processor_account: 'acct_sim_walk' });
    // A report that changes nothing writes and emits nothing.
    expect((await eventTypes(seller.id)).slice(before.length)).toEqual(state === status ? [] : row!.emits);
  });
});
