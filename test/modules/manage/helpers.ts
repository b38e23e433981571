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

/** Invites a new user with the role into the harness workspace and returns their token. */
export async function memberToken(ctx: TestContext, owner: string, role: 'owner' | 'admin' | 'developer' | 'viewer'): Promise<{ token: string; userId: string; email: string }> {
  const email = uniqueEmail(role);
  const added = await ctx.request('/manage/v1/members', { key: owner, body: { email, role } });
  expect(added.status).toBe(201);
  const accepted = await ctx.request('/manage/v1/invitations/accept', {
    key: null,
    body: { token: added.body.invitation.token, password: PASSWORD },
  });
  expect(accepted.status).toBe(200);
  return { token: accepted.body.token, userId: added.body.id, email };
}

export function expectError(res: { status: number; body: { error?: { code?: string; param?: string } } | undefined }, status: number, code: string, param?: string): void {
  expect({ status: res.status, code: res.body?.error?.code, param: res.body?.error?.param }).toEqual({ status, code, param });
}
