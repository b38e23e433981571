// Users, workspaces, sessions and members of the management API: records, bodies and
// queries, and the pieces every management schema shares (its tag, the workspace parameter).
// Types are derived from the schemas.
import { Type, type Static } from '@sinclair/typebox';
import { Body, ListOf, PageQuery, StringEnum, Timestamp } from '../../http/schemas.js';

/** The OpenAPI tag of every /manage/v1 operation. */
export const MANAGEMENT_TAG = 'Management';

export const CREATED_EXAMPLE = '2026-11-21T09:30:00.000Z';
export const EXAMPLE_IDS = {
  user: 'usr_01jd0000000000000000000000',
  workspace: 'wsp_01jd0000000000000000000000',
  marketplace: 'mkt_01jd0000000000000000000000',
  key: 'key_01jd0000000000000000000000',
};
/** The random tail of example keys and tokens. */
export const EXAMPLE_KEY_TAIL = 'Zy8Qk2Lm4Np6Rt9Vw1Xb3Cd5Fg7Hj0Kq2Ws4a1b2';

export const ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export const Role = StringEnum(ROLES, { description: 'owner, admin, developer or viewer (see docs/decisions/accounts.md for what each may do).' });
export type Role = Static<typeof Role>;

export const BillingState = StringEnum(['active', 'payment_missed', 'suspended']);
export type BillingState = Static<typeof BillingState>;

export const EmailAddress = Type.String({ format: 'email', minLength: 3, maxLength: 254, examples: ['ada@example.com'] });
export const Password = Type.String({ minLength: 10, maxLength: 200, description: 'At least 10 characters.' });

const USER_EXAMPLE = { object: 'user', id: EXAMPLE_IDS.user, email: 'ada@example.com', email_verified_at: CREATED_EXAMPLE, created_at: CREATED_EXAMPLE };
export const WORKSPACE_EXAMPLE = {
  object: 'workspace',
  id: EXAMPLE_IDS.workspace,
  name: 'Acme',
  billing_state: 'active',
  created_at: CREATED_EXAMPLE,
};
const TOKEN_EXAMPLE = { token: `mgt_${EXAMPLE_KEY_TAIL}`, token_expires_at: '2026-12-21T09:30:00.000Z' };
const MEMBER_EXAMPLE = { object: 'member', id: EXAMPLE_IDS.user, email: 'ada@example.com', role: 'owner', status: 'active', created_at: CREATED_EXAMPLE };

export const User = Type.Object(
  {
    object: Type.Literal('user'),
    id: Type.String({ examples: [EXAMPLE_IDS.user] }),
    email: Type.String(),
    email_verified_at: Type.Union([Timestamp, Type.Null()], {
      description: 'When the address was proved (the emailed verification link, or an accepted invitation); null: not yet.',
    }),
    created_at: Timestamp,
  },
  { examples: [USER_EXAMPLE] },
);
export type User = Static<typeof User>;

export const Workspace = Type.Object(
  {
    object: Type.Literal('workspace'),
    id: Type.String({ examples: [EXAMPLE_IDS.workspace] }),
    name: Type.String(),
    billing_state: BillingState,
    created_at: Timestamp,
  },
  { examples: [WORKSPACE_EXAMPLE] },
);
export type Workspace = Static<typeof Workspace>;

export const Session = Type.Object(
  {
    user: User,
    token: Type.String({ description: 'Management token (mgt_…): send as "Authorization: Bearer <token>".' }),
    token_expires_at: Timestamp,
  },
  { examples: [{ user: USER_EXAMPLE, ...TOKEN_EXAMPLE }] },
);
export type Session = Static<typeof Session>;

export const SignupSession = Type.Composite([Session, Type.Object({ workspace: Workspace })], {
  examples: [{ user: USER_EXAMPLE, ...TOKEN_EXAMPLE, workspace: WORKSPACE_EXAMPLE }],
});
export type SignupSession = Static<typeof SignupSession>;

export const Membership = Type.Object(
  { object: Type.Literal('workspace_membership'), workspace: Workspace, role: Role },
  { examples: [{ object: 'workspace_membership', workspace: WORKSPACE_EXAMPLE, role: 'developer' }] },
);
export type Membership = Static<typeof Membership>;

/** The workspaces of a user, paged like every list (the cursor is a workspace id). */
export const MembershipList = Type.Object(
  { object: Type.Literal('list'), data: Type.Array(Membership), has_more: Type.Boolean(), next_cursor: Type.Union([Type.String(), Type.Null()]) },
  {
    examples: [
      {
        object: 'list',
        data: [{ object: 'workspace_membership', workspace: WORKSPACE_EXAMPLE, role: 'owner' }],
        has_more: false,
        next_cursor: null,
      },
    ],
  },
);
export type MembershipList = Static<typeof MembershipList>;
export const ListWorkspacesQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

export const Member = Type.Object(
  {
    object: Type.Literal('member'),
    id: Type.String({ description: "The user's id." }),
    email: Type.String(),
    role: Role,
    status: StringEnum(['active', 'invited']),
    created_at: Timestamp,
  },
  { examples: [MEMBER_EXAMPLE] },
);
export type Member = Static<typeof Member>;

export const MemberList = ListOf(Member);

export const EmailVerification = Type.Object(
  {
    object: Type.Literal('email_verification'),
    user: User,
    status: StringEnum(['sent', 'verified'], { description: 'sent: a new link is on its way; verified: the address is proved.' }),
  },
  { examples: [{ object: 'email_verification', user: USER_EXAMPLE, status: 'verified' }] },
);
export type EmailVerification = Static<typeof EmailVerification>;

export const LogoutAnswer = Type.Object({ object: Type.Literal('logout'), revoked: Type.Literal(true) }, { examples: [{ object: 'logout', revoked: true }] });
export type LogoutAnswer = Static<typeof LogoutAnswer>;

// ---- bodies ----

export const SignupBody = Body({
  email: EmailAddress,
  password: Password,
  workspace_name: Type.String({ minLength: 1, maxLength: 120, examples: ['Acme'] }),
});
Object.assign(SignupBody, { examples: [{ email: 'ada@example.com', password: 'correct horse battery staple', workspace_name: 'Acme' }] });
export type SignupBody = Static<typeof SignupBody>;

export const LoginBody = Body({ email: EmailAddress, password: Type.String({ minLength: 1, maxLength: 200 }) });
Object.assign(LoginBody, { examples: [{ email: 'ada@example.com', password: 'correct horse battery staple' }] });
export type LoginBody = Static<typeof LoginBody>;

export const AcceptInvitationBody = Body({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'The token of the invitation link (inv_…).' }),
  password: Password,
});
Object.assign(AcceptInvitationBody, {
  examples: [{ token: 'inv_Zy8Qk2Lm4Np6Rt9Vw1Xb3Cd5Fg7Hj0Kq2Ws4e5f6', password: 'correct horse battery staple' }],
});
export type AcceptInvitationBody = Static<typeof AcceptInvitationBody>;

export const JoinWorkspaceBody = Body({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'The token of the invitation link (inv_…).' }),
});
Object.assign(JoinWorkspaceBody, { examples: [{ token: 'inv_Zy8Qk2Lm4Np6Rt9Vw1Xb3Cd5Fg7Hj0Kq2Ws4e5f6' }] });
export type JoinWorkspaceBody = Static<typeof JoinWorkspaceBody>;

export const ConfirmEmailBody = Body({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'The token of the emailed verification link (evf_…), after #token= .' }),
});
Object.assign(ConfirmEmailBody, { examples: [{ token: 'evf_Zy8Qk2Lm4Np6Rt9Vw1Xb3Cd5Fg7Hj0Kq2Ws4e5f6' }] });
export type ConfirmEmailBody = Static<typeof ConfirmEmailBody>;

export const AddMemberBody = Body({ email: EmailAddress, role: Role });
Object.assign(AddMemberBody, { examples: [{ email: 'grace@example.com', role: 'developer' }] });
export type AddMemberBody = Static<typeof AddMemberBody>;

export const RemoveMemberByEmailBody = Body({ email: EmailAddress });
Object.assign(RemoveMemberByEmailBody, { examples: [{ email: 'grace@example.com' }] });
export type RemoveMemberByEmailBody = Static<typeof RemoveMemberByEmailBody>;

export const UpdateMemberBody = Body({ role: Role });
Object.assign(UpdateMemberBody, { examples: [{ role: 'admin' }] });
export type UpdateMemberBody = Static<typeof UpdateMemberBody>;

export const CreateWorkspaceBody = Body({ name: Type.String({ minLength: 1, maxLength: 120, examples: ['Acme'] }) });
Object.assign(CreateWorkspaceBody, { examples: [{ name: 'Acme' }] });
export type CreateWorkspaceBody = Static<typeof CreateWorkspaceBody>;

export const SetBillingStateBody = Body({ state: BillingState });
Object.assign(SetBillingStateBody, { examples: [{ state: 'payment_missed' }] });
export type SetBillingStateBody = Static<typeof SetBillingStateBody>;

// ---- parameters and queries ----

/** Names the workspace a request acts on; needed only by members of several workspaces. */
export const WorkspaceParam = Type.Optional(
  Type.String({ minLength: 1, maxLength: 100, description: 'Workspace id (wsp_…); defaults to your only workspace.' }),
);

export const WorkspaceQuery = Type.Object({ workspace: WorkspaceParam }, { additionalProperties: false });
export type WorkspaceQuery = Static<typeof WorkspaceQuery>;

/** A list of a workspace's objects: the workspace, then paging. */
export const WorkspacePageQuery = Type.Object({ workspace: WorkspaceParam, ...PageQuery }, { additionalProperties: false });
export type WorkspacePageQuery = Static<typeof WorkspacePageQuery>;

export const MemberParams = Type.Object({ user_id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });
export type MemberParams = Static<typeof MemberParams>;
