// TypeBox shapes of the management API's objects and parameters, shared by its route files.
import { Type } from '@sinclair/typebox';
import { Nullable, PageQuery, StringEnum, Timestamp } from '../../http/schemas.js';
import { ROLES } from '../accounts/access.js';
import { defaultSettings, Settings } from '../marketplace/settings.js';

export const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254, examples: ['ada@example.com'] });
export const Password = Type.String({ minLength: 10, maxLength: 200, description: 'At least 10 characters.' });
export const Role = StringEnum(ROLES, { description: 'owner, admin, developer or viewer (see docs/decisions.md for what each may do).' });
export const ModeName = StringEnum(['test', 'live']);
export const ApiKeyType = StringEnum(['secret', 'publishable']);
export const Provider = StringEnum(['simulated', 'stripe']);
const Id = (example: string) => Type.String({ examples: [example] });

// Examples of the OpenAPI document, shared by the objects and the answers that combine them.
const CREATED = '2026-11-21T09:30:00.000Z';
const IDS = {
  user: 'usr_01jd0000000000000000000000',
  workspace: 'wsp_01jd0000000000000000000000',
  marketplace: 'mkt_01jd0000000000000000000000',
  key: 'key_01jd0000000000000000000000',
  email: 'eml_01jd0000000000000000000000',
};
const KEY_TAIL = 'Zy8Qk2Lm4Np6Rt9Vw1Xb3Cd5Fg7Hj0Kq2Ws4a1b2';

export const EXAMPLES = {
  user: { object: 'user', id: IDS.user, email: 'ada@example.com', created_at: CREATED },
  workspace: { object: 'workspace', id: IDS.workspace, name: 'Acme', billing_state: 'active', created_at: CREATED },
  token: { token: `mgt_${KEY_TAIL}`, token_expires_at: '2026-12-21T09:30:00.000Z' },
  marketplace: { object: 'marketplace', id: IDS.marketplace, workspace: IDS.workspace, name: 'Vintage Finds', currency: 'USD', created_at: CREATED },
  keyPair: (mode: 'test' | 'live') => ({ secret_key: `sk_${mode}_${KEY_TAIL}`, publishable_key: `pk_${mode}_${KEY_TAIL}` }),
  apiKey: {
    object: 'api_key',
    id: IDS.key,
    marketplace: IDS.marketplace,
    mode: 'test',
    type: 'secret',
    name: 'Checkout server',
    key: null,
    masked: 'sk_test_…a1b2',
    created_at: CREATED,
    expires_at: null,
    revoked_at: null,
  },
  member: { object: 'member', id: IDS.user, email: 'ada@example.com', role: 'owner', status: 'active', created_at: CREATED },
  processor: {
    object: 'processor_connection',
    marketplace: IDS.marketplace,
    mode: 'test',
    provider: 'stripe',
    secret_key: 'sk_test_…a1b2',
    webhook_secret: 'whsec_…c3d4',
    created_at: CREATED,
    updated_at: CREATED,
  },
} as const;

export const User = Type.Object(
  {
    object: Type.Literal('user'),
    id: Id('usr_01jd0000000000000000000000'),
    email: Type.String(),
    created_at: Timestamp,
  },
  { examples: [EXAMPLES.user] },
);

export const BillingState = StringEnum(['active', 'payment_missed', 'suspended']);

export const Workspace = Type.Object(
  {
    object: Type.Literal('workspace'),
    id: Id('wsp_01jd0000000000000000000000'),
    name: Type.String(),
    billing_state: BillingState,
    created_at: Timestamp,
  },
  { examples: [EXAMPLES.workspace] },
);

export const Session = Type.Object(
  {
    user: User,
    token: Type.String({ description: 'Management token (mgt_…): send as "Authorization: Bearer <token>".' }),
    token_expires_at: Timestamp,
  },
  { examples: [{ user: EXAMPLES.user, ...EXAMPLES.token }] },
);

export const ManagedMarketplace = Type.Object(
  {
    object: Type.Literal('marketplace'),
    id: Id('mkt_01jd0000000000000000000000'),
    workspace: Type.String(),
    name: Type.String(),
    currency: Type.String({ examples: ['USD'] }),
    created_at: Timestamp,
  },
  { examples: [EXAMPLES.marketplace] },
);

export const KeyPair = Type.Object({ secret_key: Type.String(), publishable_key: Type.String() }, { examples: [EXAMPLES.keyPair('test')] });

export const ApiKey = Type.Object(
  {
    object: Type.Literal('api_key'),
    id: Id('key_01jd0000000000000000000000'),
    marketplace: Type.String(),
    mode: ModeName,
    type: ApiKeyType,
    name: Nullable(Type.String()),
    key: Nullable(Type.String({ description: 'The whole key: secret keys only in the answer that created them; publishable keys always.' })),
    masked: Type.String({ examples: ['sk_test_…a1b2'] }),
    created_at: Timestamp,
    expires_at: Nullable(Timestamp),
    revoked_at: Nullable(Timestamp),
  },
  { examples: [EXAMPLES.apiKey] },
);

export const Member = Type.Object(
  {
    object: Type.Literal('member'),
    id: Type.String({ description: "The user's id." }),
    email: Type.String(),
    role: Role,
    status: StringEnum(['active', 'invited']),
    created_at: Timestamp,
  },
  { examples: [EXAMPLES.member] },
);

export const EmailRecord = Type.Object(
  {
    object: Type.Literal('email'),
    id: Id('eml_01jd0000000000000000000000'),
    to: Type.Array(Type.String()),
    subject: Type.String(),
    text: Type.String(),
    status: StringEnum(['queued', 'sent', 'failed']),
    created_at: Timestamp,
    sent_at: Nullable(Timestamp),
  },
  {
    examples: [
      {
        object: 'email',
        id: IDS.email,
        to: ['grace@example.com'],
        subject: 'You were added to Acme',
        text: 'ada@example.com added you to the workspace "Acme" as developer.\n\nLog in at https://market.example.com/dashboard to see it.\n',
        status: 'sent',
        created_at: CREATED,
        sent_at: '2026-11-21T09:30:02.000Z',
      },
    ],
  },
);

export const ProcessorConnection = Type.Object(
  {
    object: Type.Literal('processor_connection'),
    marketplace: Type.String(),
    mode: ModeName,
    provider: Provider,
    secret_key: Nullable(Type.String({ examples: ['sk_live_…abcd'] })),
    webhook_secret: Nullable(Type.String({ examples: ['whsec_…abcd'] })),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { examples: [EXAMPLES.processor] },
);

export const ModeSettings = Type.Composite(
  [Type.Object({ object: Type.Literal('settings'), marketplace: Type.String(), mode: ModeName }), Settings, Type.Object({ updated_at: Timestamp })],
  { examples: [{ object: 'settings', marketplace: IDS.marketplace, mode: 'test', ...defaultSettings('test'), updated_at: CREATED }] },
);

export const ModeParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 100 }), mode: ModeName },
  { additionalProperties: false },
);

/** Names the workspace a request acts on; needed only by members of several workspaces. */
export const WorkspaceParam = Type.Optional(
  Type.String({ minLength: 1, maxLength: 100, description: 'Workspace id (wsp_…); defaults to your only workspace.' }),
);

export const WorkspaceQuery = Type.Object({ workspace: WorkspaceParam }, { additionalProperties: false });
export const WorkspacePageQuery = Type.Object({ workspace: WorkspaceParam, ...PageQuery }, { additionalProperties: false });

export const TAG = 'Management';
export const SECURITY = [{ managementToken: [] }];
