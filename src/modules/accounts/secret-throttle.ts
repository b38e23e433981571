// Throttles for the routes that take a secret from a caller who is not signed in (a token from an
// emailed link, a new password) or that send email on someone's behalf. Each attempt is counted
// before anything is checked or hashed, by the same atomic upsert as login attempts (one table,
// fixed windows), in up to two buckets: the client address (one client trying many tokens or
// addresses) and the target (the email address, user or workspace the attempt is about, so many
// clients cannot flood one mailbox or one workspace). A refusal by the address bucket is not
// counted against the target, so a stranger from one address cannot lock the owner out.
// The numbers are in docs/security.md.
import type { Clock } from '../../clock.js';
import type { Queryable } from '../../db/db.js';
import { deleteEndedLoginAttempts, upsertLoginAttempts, type LoginAttemptRow } from './queries.js';
import { tooManyAttempts, type LoginLimit } from './throttle.js';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

export interface SecretRouteLimits {
  /** Attempts from one client address. */
  address?: LoginLimit;
  /** Attempts about one target (an email address, a user, a workspace). */
  target?: LoginLimit;
}

export const SECRET_ROUTE_LIMITS = {
  /** POST /manage/v1/signup; target: the email address. */
  signup: { address: { attempts: 10, windowMs: HOUR }, target: { attempts: 3, windowMs: HOUR } },
  /** POST /manage/v1/invitations/accept; target: the token's hash (a guessed token has none of its own). */
  invitation_accept: { address: { attempts: 20, windowMs: 15 * MINUTE }, target: { attempts: 5, windowMs: 15 * MINUTE } },
  /** Asking for a password reset email; target: the email address. */
  password_reset_request: { address: { attempts: 20, windowMs: HOUR }, target: { attempts: 3, windowMs: HOUR } },
  /** Confirming a password reset with the emailed token; target: the token's hash. */
  password_reset_confirm: { address: { attempts: 20, windowMs: 15 * MINUTE }, target: { attempts: 5, windowMs: 15 * MINUTE } },
  /** Confirming an email address with the emailed token; target: the token's hash. */
  email_verification: { address: { attempts: 20, windowMs: 15 * MINUTE }, target: { attempts: 5, windowMs: 15 * MINUTE } },
  /** Sending a verification email again; target: the user. */
  email_verification_resend: { address: { attempts: 20, windowMs: HOUR }, target: { attempts: 3, windowMs: HOUR } },
  /** Invitation emails; address: the invited email address, target: the workspace. */
  invitation_email: { address: { attempts: 3, windowMs: 24 * HOUR }, target: { attempts: 50, windowMs: 24 * HOUR } },
} satisfies Record<string, SecretRouteLimits>;

export type SecretRoute = keyof typeof SECRET_ROUTE_LIMITS;

export interface SecretAttemptKeys {
  /** The client's address (request.ip), or for invitation emails the invited address. */
  address?: string;
  /** What the attempt is about; see each route's comment above. */
  target?: string;
}

async function countAndCheck(q: Queryable, nowMs: number, route: SecretRoute, kind: 'address' | 'target', key: string | undefined): Promise<void> {
  const limit: LoginLimit | undefined = (SECRET_ROUTE_LIMITS[route] as SecretRouteLimits)[kind];
  if (key === undefined || !limit) return;
  const [row] = await upsertLoginAttempts(q, new Date(nowMs), [
    { bucket: `${route}:${kind}:${key}`, expiresAt: new Date(nowMs + limit.windowMs) },
  ]);
  refuseIfOver(row, limit, nowMs, route, kind);
}

function refuseIfOver(row: LoginAttemptRow | undefined, limit: LoginLimit, nowMs: number, route: SecretRoute, kind: 'address' | 'target'): void {
  if (!row || row.attempts <= limit.attempts) return;
  const by = kind === 'address' ? 'from this address' : 'for this target';
  throw tooManyAttempts(
    `Too many ${route.replaceAll('_', ' ')} attempts ${by} (at most ${limit.attempts} per ${Math.round(limit.windowMs / MINUTE)} minutes); wait Retry-After seconds.`,
    row.expires_at,
    nowMs,
  );
}

/**
 * Counts one attempt at a secret-taking route before anything is checked or hashed; throws 429
 * rate_limited with Retry-After when the address's or the target's bucket is over its limit.
 * A statement of its own, outside any transaction, so parallel attempts see each other's counts.
 */
export async function admitSecretAttempt(q: Queryable, clock: Clock, route: SecretRoute, keys: SecretAttemptKeys): Promise<void> {
  const nowMs = clock.nowMs();
  await countAndCheck(q, nowMs, route, 'address', keys.address);
  await countAndCheck(q, nowMs, route, 'target', keys.target);
  await deleteEndedLoginAttempts(q, new Date(nowMs), 100);
}
