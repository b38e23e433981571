// Small factories for the management API tests: tokens for the harness owner and for users of
// each role, made through the real routes.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TestContext } from '../../helpers/harness.js';

export const PASSWORD = 'correct horse battery';

export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomBytes(4).toString('hex')}@example.com`;
}

export async function ownerToken(ctx: TestContext): Promise<string> {
  const res = await ctx.request('/manage/v1/login', { key: null, body: ctx.owner });
  expect(res.status).toBe(200);
  return res.body.token;
}

/**
 * The token of the newest invitation emailed to the address, read from the stored email as the
 * invitee's mailbox would receive it: no API answer holds it.
 */
export async function emailedToken(ctx: TestContext, email: string, prefix: 'inv' | 'evf' | 'pwr' = 'inv'): Promise<string> {
  const rows = await ctx.db.query<{ body_text: string }>(
    `SELECT body_text FROM emails WHERE to_addresses @> $1::jsonb ORDER BY created_at DESC, id DESC`,
    [JSON.stringify([email.toLowerCase()])],
  );
  for (const row of rows) {
    const token = new RegExp(`#token=(${prefix}_[A-Za-z0-9]+)`).exec(row.body_text)?.[1];
    if (token) return token;
  }
  throw new Error(`no ${prefix}_ link was emailed to ${email}`);
}

/** Invites a new user with the role into the harness workspace and returns their token. */
export async function memberToken(ctx: TestContext, owner: string, role: 'owner' | 'admin' | 'developer' | 'viewer'): Promise<{ token: string; userId: string; email: string }> {
  const email = uniqueEmail(role);
  const added = await ctx.request('/manage/v1/members', { key: owner, body: { email, role } });
  expect(added.status).toBe(201);
  const accepted = await ctx.request('/manage/v1/invitations/accept', {
    key: null,
    body: { token: await emailedToken(ctx, email), password: PASSWORD },
  });
  expect(accepted.status).toBe(200);
  return { token: accepted.body.token, userId: added.body.id, email };
}

export function expectError(res: { status: number; body: { error?: { code?: string; param?: string } } | undefined }, status: number, code: string, param?: string): void {
  expect({ status: res.status, code: res.body?.error?.code, param: res.body?.error?.param }).toEqual({ status, code, param });
}
