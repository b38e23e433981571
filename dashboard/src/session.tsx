// The signed-in member: GET /manage/v1/session (the cookie is HttpOnly; the CSRF token comes in
// the answer and lives only in memory).
import { createContext, useContext } from 'react';
import { api, call, context } from './api/client';

export interface Workspace {
  id: string;
  name: string;
  role: 'owner' | 'admin' | 'developer' | 'viewer';
}

export interface Session {
  user: { id: string; email: string; email_verified_at: string | null };
  csrf_token: string;
  expires_at: string;
  workspaces: Workspace[];
}

export async function loadSession(): Promise<Session | null> {
  const result = await api.GET('/manage/v1/session', {});
  if (result.response.status === 401) return null;
  const session = (await call(Promise.resolve(result))) as unknown as Session;
  context.csrfToken = session.csrf_token;
  return session;
}

export async function signIn(email: string, password: string): Promise<void> {
  const answer = (await call(api.POST('/manage/v1/sessions', { body: { email, password } }))) as unknown as { csrf_token: string };
  context.csrfToken = answer.csrf_token;
}

export async function signOut(): Promise<void> {
  await api.DELETE('/manage/v1/session', {});
  context.csrfToken = null;
}

export interface SessionState {
  session: Session;
  workspace: Workspace;
  setWorkspace: (id: string) => void;
  refresh: () => Promise<void>;
}

export const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside a session');
  return value;
}

/** Whether the member's role may change things (a viewer reads only; the server decides anyway). */
export function canWrite(role: Workspace['role']): boolean {
  return role !== 'viewer';
}
export function canManageMembers(role: Workspace['role']): boolean {
  return role === 'owner' || role === 'admin';
}
