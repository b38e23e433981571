// The dashboard's sign-in: log in (a session instead of a token, with the login's checks and
// throttle), read the session, log out. The route sets or clears the cookie with what these answer.
import type { ServiceContext, UserContext } from '../../contracts/context.js';
import { logInWith, membershipsOfUser, retrieveUser } from '../accounts/index.js';
import type { CreateSessionBody, DashboardSession, DashboardSessionDetails, DeletedSession } from './schemas.js';
import { endSession, startSession, type ActiveSession } from './sessions.js';

export interface StartedSession {
  /** The cookie's value: answered nowhere else. */
  token: string;
  answer: DashboardSession;
}

function answerOf(user: DashboardSession['user'], session: ActiveSession): DashboardSession {
  return { object: 'dashboard_session', user, csrf_token: session.csrfToken, expires_at: session.expiresAt.toISOString() };
}

/** POST /manage/v1/sessions: the same checks and 401/429 answers as POST /manage/v1/login. */
export async function createSession(ctx: ServiceContext, body: CreateSessionBody, clientAddress: string): Promise<StartedSession> {
  return logInWith(ctx, body, clientAddress, async (tx, user) => {
    const { token, session } = await startSession(tx, ctx.config, user, new Date(ctx.clock.nowMs()));
    return { token, answer: answerOf(user, session) };
  });
}

/** GET /manage/v1/session: the signed-in user, the CSRF token again (after a reload), and their workspaces. */
export async function retrieveSession(ctx: UserContext, session: ActiveSession): Promise<DashboardSessionDetails> {
  const user = await retrieveUser(ctx.db, ctx.principal.userId);
  const workspaces = await membershipsOfUser(ctx.db, ctx.principal.userId);
  return { ...answerOf(user, session), workspaces };
}

/** DELETE /manage/v1/session: the session stops working at once. */
export async function deleteSession(ctx: UserContext, session: ActiveSession): Promise<DeletedSession> {
  await ctx.db.transaction((tx) => endSession(tx, session, new Date(ctx.clock.nowMs())));
  return { object: 'dashboard_session', deleted: true };
}
