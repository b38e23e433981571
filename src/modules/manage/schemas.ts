// TypeBox shapes of the management API's objects and parameters, shared by its route files.
import { Type } from '@sinclair/typebox';
import { Nullable, PageQuery, StringEnum, Timestamp } from '../../http/schemas.js';
import { ROLES } from '../accounts/access.js';
import { Settings } from '../marketplace/settings.js';

export const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254, examples: ['ada@example.com'] });
export const Password = Type.String({ minLength: 10, maxLength: 200, description: 'At least 10 characters.' });
export const Role = StringEnum(ROLES, { description: 'owner, admin, developer or viewer (see docs/decisions.md for what each may do).' });
export const ModeName = StringEnum(['test', 'live']);
export const ApiKeyType = StringEnum(['secret', 'publishable']);
export const Provider = StringEnum(['simulated', 'stripe']);
const Id = (example: string) => Type.String({ examples: [example] });

export const User = Type.Object({
  object: Type.Literal('user'),
  id: Id('usr_01jd0000000000000000000000'),
  email: Type.String(),
  created_at: Timestamp,
});

export const BillingState = StringEnum(['active', 'payment_missed', 'suspended']);

export const Workspace = Type.Object({
  object: Type.Literal('workspace'),
  id: Id('wsp_01jd0000000000000000000000'),
  name: Type.String(),
  billing_state: BillingState,
  created_at: Timestamp,
});

export const Session = Type.Object({
  user: User,
  token: Type.String({ description: 'Management token (mgt_…): send as "Authorization: Bearer <token>".' }),
  token_expires_at: Timestamp,
});

export const ManagedMarketplace = Type.Object({
  object: Type.Literal('marketplace'),
  id: Id('mkt_01jd0000000000000000000000'),
  workspace: Type.String(),
  name: Type.String(),
  currency: Type.String({ examples: ['USD'] }),
  created_at: Timestamp,
});

export const KeyPair = Type.Object({ secret_key: Type.String(), publishable_key: Type.String() });

export const ApiKey = Type.Object({
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
});

export const Member = Type.Object({
  object: Type.Literal('member'),
  id: Type.String({ description: "The user's id." }),
  email: Type.String(),
  role: Role,
  status: StringEnum(['active', 'invited']),
  created_at: Timestamp,
});

export const EmailRecord = Type.Object({
  object: Type.Literal('email'),
  id: Id('eml_01jd0000000000000000000000'),
  to: Type.Array(Type.String()),
  subject: Type.String(),
  text: Type.String(),
  status: StringEnum(['queued', 'sent', 'failed']),
  created_at: Timestamp,
  sent_at: Nullable(Timestamp),
});

export const ProcessorConnection = Type.Object({
  object: Type.Literal('processor_connection'),
  marketplace: Type.String(),
  mode: ModeName,
  provider: Provider,
  secret_key: Nullable(Type.String({ examples: ['sk_live_…abcd'] })),
  webhook_secret: Nullable(Type.String({ examples: ['whsec_…abcd'] })),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ModeSettings = Type.Composite([
  Type.Object({ object: Type.Literal('settings'), marketplace: Type.String(), mode: ModeName }),
  Settings,
  Type.Object({ updated_at: Timestamp }),
]);

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
