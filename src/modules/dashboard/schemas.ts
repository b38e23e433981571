// Dashboard sessions and password resets: records and bodies. Types derived from the schemas.
import { Type, type Static } from '@sinclair/typebox';
import { Body } from '../../http/schemas.js';
import { CREATED_EXAMPLE, EmailAddress, EXAMPLE_IDS, LoginBody, Password, Role, User } from '../accounts/index.js';

const USER_EXAMPLE = { object: 'user', id: EXAMPLE_IDS.user, email: 'ada@example.com', email_verified_at: CREATED_EXAMPLE, created_at: CREATED_EXAMPLE };
const CSRF_EXAMPLE = 'm1Qk2Lm4Np6Rt9Vw1Xb3Cd5Fg7Hj0Kq2Ws4a1b2c3d4';
const EXPIRES_EXAMPLE = '2026-11-21T21:30:00.000Z';

const CsrfToken = Type.String({
  description: 'Send it as the X-CSRF-Token header of every request but GET and HEAD made with the session cookie.',
  examples: [CSRF_EXAMPLE],
});
const SessionEnd = Type.String({
  format: 'date-time',
  description: 'When the session ends unless used again: 12 hours after its last request, and never later than 7 days after login.',
  examples: [EXPIRES_EXAMPLE],
});

export const DashboardSession = Type.Object(
  { object: Type.Literal('dashboard_session'), user: User, csrf_token: CsrfToken, expires_at: SessionEnd },
  { examples: [{ object: 'dashboard_session', user: USER_EXAMPLE, csrf_token: CSRF_EXAMPLE, expires_at: EXPIRES_EXAMPLE }] },
);
export type DashboardSession = Static<typeof DashboardSession>;

export const SessionWorkspace = Type.Object({ id: Type.String({ examples: [EXAMPLE_IDS.workspace] }), name: Type.String(), role: Role });

export const DashboardSessionDetails = Type.Composite([DashboardSession, Type.Object({ workspaces: Type.Array(SessionWorkspace) })], {
  examples: [
    {
      object: 'dashboard_session',
      user: USER_EXAMPLE,
      csrf_token: CSRF_EXAMPLE,
      expires_at: EXPIRES_EXAMPLE,
      workspaces: [{ id: EXAMPLE_IDS.workspace, name: 'Acme', role: 'owner' }],
    },
  ],
});
export type DashboardSessionDetails = Static<typeof DashboardSessionDetails>;

export const DeletedSession = Type.Object(
  { object: Type.Literal('dashboard_session'), deleted: Type.Literal(true) },
  { examples: [{ object: 'dashboard_session', deleted: true }] },
);
export type DeletedSession = Static<typeof DeletedSession>;

export const PasswordResetRequested = Type.Object(
  { object: Type.Literal('password_reset'), email: Type.String() },
  { examples: [{ object: 'password_reset', email: 'ada@example.com' }] },
);
export type PasswordResetRequested = Static<typeof PasswordResetRequested>;

export const PasswordResetDone = Type.Object({ user: User }, { examples: [{ user: USER_EXAMPLE }] });
export type PasswordResetDone = Static<typeof PasswordResetDone>;

// ---- bodies ----

export const CreateSessionBody = LoginBody;
export type CreateSessionBody = Static<typeof CreateSessionBody>;

export const RequestPasswordResetBody = Body({ email: EmailAddress });
Object.assign(RequestPasswordResetBody, { examples: [{ email: 'ada@example.com' }] });
export type RequestPasswordResetBody = Static<typeof RequestPasswordResetBody>;

export const ConfirmPasswordResetBody = Body({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'The token of the emailed link (pwr_…), after #token= .' }),
  password: Password,
});
Object.assign(ConfirmPasswordResetBody, {
  examples: [{ token: 'pwr_Zy8Qk2Lm4Np6Rt9Vw1Xb3Cd5Fg7Hj0Kq2Ws4e5f6', password: 'correct horse battery staple' }],
});
export type ConfirmPasswordResetBody = Static<typeof ConfirmPasswordResetBody>;
