// Dashboard sessions: what the session cookie (mb_session) stands for. The cookie holds 238
// random bits; only their SHA-256 is stored, like a management token. A session ends after 12
// hours without a request or 7 days after login, whichever comes first, at logout, and when the
// user's password is reset. Its CSRF token is derived from the cookie's text with an HMAC under
// SECRET_KEY: one per session, nothing more to store, and unknowable without the cookie.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { Db, Tx } from '../../db/db.js';
import { newId, randomBase62 } from '../../ids.js';
import { sha256Hex } from '../../secrets.js';
import { findUser } from '../accounts/index.js';
import * as queries from './queries.js';

export const SESSION_COOKIE = 'mb_session';
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
/** last_used_at is written at most this often: a page of requests costs one write, not one each. */
const TOUCH_EVERY_MS = 60 * 1000;

const TOKEN_PREFIX = 'mbs_';
const TOKEN_SHAPE = /^mbs_[0-9A-Za-z]{40}$/;

export interface SessionDeps {
  db: Db;
  clock: Clock;
  config: Config;
}

export interface ActiveSession {
  id: string;
  userId: string;
  email: string;
  csrfToken: string;
  /** When it ends unless used again: the idle end or the absolute end, the earlier. */
  expiresAt: Date;
}

export function csrfTokenOf(secretKey: Buffer, sessionToken: string): string {
  return createHmac('sha256', secretKey).update(`dashboard-csrf:${sessionToken}`).digest('base64url');
}

/** Constant-time comparison of a sent CSRF token with the session's. */
export function csrfTokenMatches(session: ActiveSession, sent: string | undefined): boolean {
  if (sent === undefined) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(session.csrfToken);
  return a.length === b.length && timingSafeEqual(a, b);
}

function endOf(lastUsed: Date, absoluteEnd: Date): Date {
  return new Date(Math.min(lastUsed.getTime() + SESSION_IDLE_MS, absoluteEnd.getTime()));
}

/** A new session for the user, in the caller's transaction; the token goes into the cookie only. */
export async function startSession(tx: Tx, config: Config, user: { id: string; email: string }, now: Date): Promise<{ token: string; session: ActiveSession }> {
  const token = `${TOKEN_PREFIX}${randomBase62(40)}`;
  const id = newId('dashboardSession');
  const absoluteEnd = new Date(now.getTime() + SESSION_LIFETIME_MS);
  await queries.insertSession(tx, { id, user_id: user.id, token_hash: sha256Hex(token), created_at: now, expires_at: absoluteEnd });
  return {
    token,
    session: { id, userId: user.id, email: user.email, csrfToken: csrfTokenOf(config.secretKey, token), expiresAt: endOf(now, absoluteEnd) },
  };
}

/** The live session of a cookie's text, its idle time reset; null when unknown, ended or idle too long. */
export async function findSession(deps: SessionDeps, token: string): Promise<ActiveSession | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const now = new Date(deps.clock.nowMs());
  const row = await queries.selectLiveSession(deps.db, sha256Hex(token), now, new Date(now.getTime() - SESSION_IDLE_MS));
  if (!row) return null;
  // The user (its email goes into the request's principal) is the accounts module's.
  const user = await findUser(deps.db, row.user_id);
  if (!user) return null;
  let lastUsed = row.last_used_at;
  if (now.getTime() - lastUsed.getTime() >= TOUCH_EVERY_MS) {
    await deps.db.transaction((tx) => queries.updateSessionUsed(tx, row.id, now));
    lastUsed = now;
  }
  return { id: row.id, userId: row.user_id, email: user.email, csrfToken: csrfTokenOf(deps.config.secretKey, token), expiresAt: endOf(lastUsed, row.expires_at) };
}

/** Logout: the session row goes (and the user's ended ones with it). */
export async function endSession(tx: Tx, session: ActiveSession, now: Date): Promise<void> {
  await queries.deleteSession(tx, session.userId, session.id, now, new Date(now.getTime() - SESSION_IDLE_MS));
}

/** A password reset ends every session of the user. */
export async function endSessionsOfUser(tx: Tx, userId: string): Promise<void> {
  await queries.deleteSessionsOfUser(tx, userId);
}
