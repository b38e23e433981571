// Report test steps: plant journal entries at chosen times through the ledger module, ask for a
// report over HTTP, run the build job as the worker would, and read the CSV through its link.
import { expect } from 'vitest';
import { runDueJobs } from '../../../src/workers/engine.js';
import { reportBuildJob } from '../../../src/modules/reports/job.js';
import { postEntries, sellerAccount, sideOf, type NewEntry } from '../../../src/modules/ledger/index.js';
import type { Json } from '../../helpers/factories.js';
import type { TestContext, TestResponse } from '../../helpers/harness.js';

export type Mode = 'test' | 'live';

/** Posts one entry at `at` in the test mode (or `mode`). */
export async function plant(ctx: TestContext, at: string, entry: Omit<NewEntry, 'currency'> & { currency?: string }, mode: Mode = 'test'): Promise<void> {
  await ctx.db.transaction((tx) => postEntries(tx, { marketplaceId: ctx.marketplaceId, mode }, new Date(at), [{ currency: 'USD', ...entry }]));
}

/** Two-line entries of an order part: the account's delta and the opposite on the seller. */
export function pairWithSeller(sellerId: string, account: NewEntry['lines'][number]['account'], amount: number): NewEntry['lines'] {
  return [
    { account, amount },
    { account: sellerAccount(sellerId), amount: sideOf(account) === 'debit' ? amount : -amount },
  ];
}

export const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

export async function createReport(ctx: TestContext, body: Record<string, unknown>, key?: string): Promise<TestResponse> {
  return ctx.request('/v1/reports', { method: 'POST', body, ...(key ? { key } : {}) });
}

/** Runs the queued report builds now (the worker's job). */
export function runReportJobs(ctx: TestContext) {
  return runDueJobs(ctx.services, reportBuildJob);
}

/** Asks for a report, builds it, and answers the report read again (succeeded asserted unless `expect`). */
export async function builtReport(ctx: TestContext, body: Record<string, unknown>, status: 'succeeded' | 'failed' = 'succeeded', key?: string): Promise<Json> {
  const created = await createReport(ctx, body, key);
  expect(created.status, created.text).toBe(201);
  expect(created.body).toMatchObject({ object: 'report', status: 'pending', file: null });
  await runReportJobs(ctx);
  const read = await ctx.request(`/v1/reports/${created.body.id}`, key ? { key } : {});
  expect(read.status, read.text).toBe(200);
  expect(read.body.status, JSON.stringify(read.body)).toBe(status);
  return read.body;
}

export const pathOf = (url: string) => new URL(url).pathname;

export async function download(ctx: TestContext, url: string) {
  const res = await ctx.app.inject({ method: 'GET', url: pathOf(url) });
  return { status: res.statusCode, headers: res.headers, text: res.body, json: () => JSON.parse(res.body) as Json };
}

/** The CSV's records as arrays of cells (the fields this service writes never hold quotes or line breaks unless quoted). */
export function parseCsv(text: string): string[][] {
  expect(text.endsWith('\r\n')).toBe(true);
  return text
    .slice(0, -2)
    .split('\r\n')
    .map((line) => line.split(','));
}
