// The dispatcher's claim and settle keep the plans they were written for on a table without
// statistics (a new database, before autovacuum's first ANALYZE, when a backlog grows fastest):
// the settle finds each row by its ctid, the per_object check reads its own index, and the claim
// (with its per-tenant turns) reads each endpoint's due rows from their index. The first two had
// gone to other indexes there, reading every pending row of a mode or an endpoint per row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../../src/db/db.js';
import type { Mode } from '../../../src/scope.js';
import * as queries from '../../../src/modules/webhooks/queries.js';
import { createSeller } from '../../helpers/factories.js';
import { startTestApp, type TestContext } from '../../helpers/harness.js';
import { createEndpoint } from './helpers.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(async () => {
  await ctx.close();
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

/** The plan of the first statement `run` sends, as EXPLAIN (without running it) shows it. */
async function planOf(run: (q: Queryable) => Promise<unknown>): Promise<PlanNode[]> {
  let sent: { sql: string; params: readonly unknown[] } | null = null;
  const capture: Queryable = {
    query: async (sql, params = []) => {
      sent ??= { sql, params };
      return [];
    },
  };
  await run(capture);
  if (!sent) throw new Error('no statement sent');
  const { sql, params } = sent as { sql: string; params: readonly unknown[] };
  const rows = await ctx.db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  const text = rows[0]!['QUERY PLAN'];
  const plan = (typeof text === 'string' ? JSON.parse(text) : text) as Array<{ Plan: PlanNode }>;
  return nodesOf(plan[0]!.Plan);
}

describe('the dispatcher plans on a table without statistics', () => {
  it('settles by ctid and checks per_object order on its own index', async () => {
    await createEndpoint(ctx, { url: 'http://127.0.0.1:9/ordered', enabled_events: ['seller.created'], ordering: 'per_object' });
    await createEndpoint(ctx, { url: 'http://127.0.0.1:9/plain', enabled_events: ['seller.created'] });
    for (let i = 0; i < 20; i++) await createSeller(ctx);
    // A backlog of the size where the plans had gone wrong: 8,000 more pending rows like those.
    await ctx.db.query(
      `INSERT INTO webhook_deliveries (marketplace_id, mode, id, endpoint_id, event_id, event_type, object_id, status, next_attempt_at, created_at)
       SELECT marketplace_id, mode, id || 'c' || g, endpoint_id, event_id || 'c' || g, event_type, object_id || 'c' || g, status, next_attempt_at, created_at
         FROM webhook_deliveries, generate_series(1, 200) AS g`,
    );
    const pending = await ctx.db.query<{ row_id: string; marketplace_id: string; mode: Mode; id: string; endpoint_id: string }>(
      `SELECT ctid::text AS row_id, marketplace_id, mode, id, endpoint_id FROM webhook_deliveries WHERE status = 'pending' ORDER BY id LIMIT 200`,
    );
    expect(pending).toHaveLength(200);

    const claim = await planOf((q) =>
      queries.claimDueDeliveries(q, {
        realNow: new Date(),
        limit: 256,
        scan: 256,
        fullEndpoints: [],
        partialEndpoints: [],
        partialSlots: [],
        perEndpoint: 64,
        // A tenant at its cap, and this one with slots left: the tenants' turns (docs/webhooks.md).
        fullTenants: ['mkt_full/test'],
        partialTenants: [`${ctx.marketplaceId}/test`],
        tenantSlots: [100],
        perTenant: 128,
        lockedBy: 'plans#1',
        leaseMs: 30_000,
        horizonMs: 200,
        only: null,
      }),
    );
    expect(claim.some((node) => node['Index Name'] === 'webhook_deliveries_object_pending_idx')).toBe(true);
    // Each endpoint's due rows come from its own index range, never from reading the table whole.
    expect(claim.some((node) => node['Index Name'] === 'webhook_deliveries_endpoint_due_idx')).toBe(true);
    expect(claim.filter((node) => node['Relation Name'] === 'webhook_deliveries' && node['Node Type'] === 'Seq Scan')).toEqual([]);

    const at = new Date().toISOString();
    const settle = await planOf((q) =>
      queries.updateSettledDeliveries(
        q,
        pending.map((row) => ({
          ...row,
          locked_by: 'plans#1',
          status: 'succeeded' as const,
          log: { at, status: 200, duration_ms: 1, error: null },
          next_attempt_at: null,
          headers: {},
          response_status: 200,
          response_body: 'ok',
          error: null,
          completed_at: at,
        })),
        [],
        60_000,
      ),
    );
    const reads = settle.filter((node) => node['Relation Name'] === 'webhook_deliveries' && node['Node Type'] !== 'ModifyTable');
    expect(reads.map((node) => node['Node Type'])).toEqual(['Tid Scan']);
  });
});
