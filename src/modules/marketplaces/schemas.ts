// Marketplaces, their API keys, processor connections and per-mode settings, as the management
// API shows them: records, bodies and parameters. Types are derived from the schemas.
import { Type, type Static } from '@sinclair/typebox';
import { Body, Currency, ListOf, Nullable, PageQuery, StringEnum, Timestamp } from '../../http/schemas.js';
import { MODES, type Scope } from '../../scope.js';
import { CREATED_EXAMPLE, EXAMPLE_IDS, EXAMPLE_KEY_TAIL } from '../accounts/index.js';
import { PROVIDERS } from '../../contracts/processor.js';
import { defaultSettings, Settings, SettingsPatch } from '../../contracts/settings.js';

export const ModeName = StringEnum(MODES);
export const ApiKeyType = StringEnum(['secret', 'publishable']);
export type ApiKeyType = Static<typeof ApiKeyType>;
export const Provider = StringEnum(PROVIDERS);
export type Provider = Static<typeof Provider>;

const MARKETPLACE_EXAMPLE = {
  object: 'marketplace',
  id: EXAMPLE_IDS.marketplace,
  workspace: EXAMPLE_IDS.workspace,
  name: 'Vintage Finds',
  currency: 'USD',
  created_at: CREATED_EXAMPLE,
};
const keyPairExample = (mode: 'test' | 'live') => ({ secret_key: `sk_${mode}_${EXAMPLE_KEY_TAIL}`, publishable_key: `pk_${mode}_${EXAMPLE_KEY_TAIL}` });
const API_KEY_EXAMPLE = {
  object: 'api_key',
  id: EXAMPLE_IDS.key,
  marketplace: EXAMPLE_IDS.marketplace,
  mode: 'test',
  type: 'secret',
  name: 'Checkout server',
  key: null,
  masked: 'sk_test_…a1b2',
  created_at: CREATED_EXAMPLE,
  expires_at: null,
  revoked_at: null,
};
const PROCESSOR_EXAMPLE = {
  object: 'processor_connection',
  marketplace: EXAMPLE_IDS.marketplace,
  mode: 'test',
  provider: 'stripe',
  secret_key: 'sk_test_…a1b2',
  webhook_secret: 'whsec_…c3d4',
  connect_webhook_secret: 'whsec_…ef01',
  created_at: CREATED_EXAMPLE,
  updated_at: CREATED_EXAMPLE,
};

/** A marketplace as its workspace's members see it (the /v1 Marketplace record is the key's view). */
export const ManagedMarketplace = Type.Object(
  {
    object: Type.Literal('marketplace'),
    id: Type.String({ examples: [EXAMPLE_IDS.marketplace] }),
    workspace: Type.String(),
    name: Type.String(),
    currency: Type.String({ examples: ['USD'] }),
    created_at: Timestamp,
  },
  { examples: [MARKETPLACE_EXAMPLE] },
);
export type ManagedMarketplace = Static<typeof ManagedMarketplace>;

export const ManagedMarketplaceList = ListOf(ManagedMarketplace);

export const KeyPair = Type.Object({ secret_key: Type.String(), publishable_key: Type.String() }, { examples: [keyPairExample('test')] });
export type KeyPair = Static<typeof KeyPair>;

export const CreatedMarketplace = Type.Object(
  { marketplace: ManagedMarketplace, api_keys: Type.Object({ test: KeyPair, live: KeyPair }) },
  { examples: [{ marketplace: MARKETPLACE_EXAMPLE, api_keys: { test: keyPairExample('test'), live: keyPairExample('live') } }] },
);
export type CreatedMarketplace = Static<typeof CreatedMarketplace>;

export const ApiKey = Type.Object(
  {
    object: Type.Literal('api_key'),
    id: Type.String({ examples: [EXAMPLE_IDS.key] }),
    marketplace: Type.String(),
    mode: ModeName,
    type: ApiKeyType,
    name: Nullable(Type.String()),
    key: Nullable(
      Type.String({
        description:
          'The whole key. A publishable key is public (it goes into storefronts and apps), so every answer shows it whole: ' +
          'the list, a roll, a revoke. A secret key is whole only in the answer that created it (creation or roll), null after.',
      }),
    ),
    masked: Type.String({ examples: ['sk_test_…a1b2'], description: 'The type, mode and last four characters, to recognise any key by.' }),
    created_at: Timestamp,
    expires_at: Nullable(Timestamp),
    revoked_at: Nullable(Timestamp),
  },
  { examples: [API_KEY_EXAMPLE] },
);
export type ApiKey = Static<typeof ApiKey>;

/** A publishable key as every answer shows it: whole. */
const PUBLISHABLE_KEY_EXAMPLE = {
  ...API_KEY_EXAMPLE,
  id: 'key_01jd0000000000000000000002',
  type: 'publishable',
  name: 'Storefront',
  key: keyPairExample('test').publishable_key,
  masked: `pk_test_…${EXAMPLE_KEY_TAIL.slice(-4)}`,
};

/** The list's example shows both kinds: a publishable key whole, a secret key masked. */
export const ApiKeyList = { ...ListOf(ApiKey), examples: [{ object: 'list', data: [PUBLISHABLE_KEY_EXAMPLE, API_KEY_EXAMPLE], has_more: false, next_cursor: null }] };

/** The answer that creates a secret key is the only one that shows it whole. */
export const CreatedApiKey = { ...ApiKey, examples: [{ ...API_KEY_EXAMPLE, key: keyPairExample('test').secret_key }] };

export const RolledApiKey = {
  ...CreatedApiKey,
  examples: [{ ...CreatedApiKey.examples[0], id: 'key_01jd0000000000000000000001', created_at: '2026-11-22T09:30:00.000Z' }],
};

export const ProcessorConnection = Type.Object(
  {
    object: Type.Literal('processor_connection'),
    marketplace: Type.String(),
    mode: ModeName,
    provider: Provider,
    secret_key: Nullable(Type.String({ examples: ['sk_live_…abcd'] })),
    webhook_secret: Nullable(Type.String({ examples: ['whsec_…abcd'] })),
    connect_webhook_secret: Nullable(Type.String({ examples: ['whsec_…ef01'], description: 'stripe: the signing secret of the Connect endpoint (connected accounts\' events), when given.' })),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { examples: [PROCESSOR_EXAMPLE] },
);
export type ProcessorConnection = Static<typeof ProcessorConnection>;

export const DeletedProcessorConnection = Type.Composite([ProcessorConnection, Type.Object({ deleted: Type.Literal(true) })], {
  examples: [{ ...PROCESSOR_EXAMPLE, deleted: true }],
});
export type DeletedProcessorConnection = Static<typeof DeletedProcessorConnection>;

export const ModeSettings = Type.Composite(
  [Type.Object({ object: Type.Literal('settings'), marketplace: Type.String(), mode: ModeName }), Settings, Type.Object({ updated_at: Timestamp })],
  { examples: [{ object: 'settings', marketplace: EXAMPLE_IDS.marketplace, mode: 'test', ...defaultSettings('test'), updated_at: CREATED_EXAMPLE }] },
);
export type ModeSettings = Static<typeof ModeSettings>;

// ---- bodies ----

export const CreateMarketplaceBody = Body({
  name: Type.String({ minLength: 1, maxLength: 120, examples: ['Vintage Finds'] }),
  currency: Currency,
});
Object.assign(CreateMarketplaceBody, { examples: [{ name: 'Vintage Finds', currency: 'USD' }] });
export type CreateMarketplaceBody = Static<typeof CreateMarketplaceBody>;

export const CreateApiKeyBody = Body({
  type: ApiKeyType,
  name: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 100, examples: ['Checkout server'] }), Type.Null()])),
});
Object.assign(CreateApiKeyBody, { examples: [{ type: 'secret', name: 'Checkout server' }] });
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;

export const MAX_ROLL_EXPIRY_SECONDS = 7 * 24 * 60 * 60;

export const RollApiKeyBody = Body({
  expires_in_seconds: Type.Integer({
    minimum: 0,
    maximum: MAX_ROLL_EXPIRY_SECONDS,
    description: 'How long the old key keeps working: 0 (stops at once) to 604800 (7 days).',
    examples: [86400],
  }),
});
Object.assign(RollApiKeyBody, { examples: [{ expires_in_seconds: 86400 }] });
export type RollApiKeyBody = Static<typeof RollApiKeyBody>;

export const PutProcessorBody = Body({
  provider: Provider,
  secret_key: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'stripe: sk_… or rk_… of this mode.' })),
  webhook_secret: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'stripe: the whsec_… signing secret of the endpoint for your account\'s events.' })),
  connect_webhook_secret: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: "stripe, optional: the whsec_… signing secret of a Connect endpoint at the same URL, for connected accounts' events (account.updated). Stripe signs each endpoint with its own secret." }),
  ),
});
Object.assign(PutProcessorBody, {
  examples: [{ provider: 'stripe', secret_key: 'sk_test_51Zy8Qk2Lm4Np6Rt9Vw1Xb3Cd5Fg7Hj0Ka1b2', webhook_secret: 'whsec_Zy8Qk2Lm4Np6Rt9Vw1Xb3Cd5Fg7c3d4' }],
});
export type PutProcessorBody = Static<typeof PutProcessorBody>;

export const UpdateSettingsBody = {
  ...SettingsPatch,
  examples: [{ payments_enabled: true, platform_fee: { percent_bps: 500, fixed_amount: 30 }, checkout_success_url: 'https://shop.example.com/thanks' }],
};
export type UpdateSettingsBody = Static<typeof UpdateSettingsBody>;

// ---- parameters and queries ----

/** /marketplaces/{id}/modes/{mode}/…: one mode of a marketplace. */
export const ModeParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }), mode: ModeName }, { additionalProperties: false });
export type ModeParams = Static<typeof ModeParams>;

export function scopeOf(params: ModeParams): Scope {
  return { marketplaceId: params.id, mode: params.mode };
}

export const ListApiKeysQuery = Type.Object(
  { ...PageQuery, type: Type.Optional(StringEnum(['secret', 'publishable'], { description: 'Only keys of this type (publishable: the keys to copy into a storefront).' })) },
  { additionalProperties: false },
);
export type ListApiKeysQuery = Static<typeof ListApiKeysQuery>;

// The marketplace as an API key sees it: GET /v1/marketplace (its settings schema is in mode-settings.ts).
export const Marketplace = Type.Object(
  {
    object: Type.Literal('marketplace'),
    id: Type.String({ examples: ['mkt_01jd0000000000000000000000'] }),
    name: Type.String(),
    currency: Type.String({ examples: ['USD'] }),
    livemode: Type.Boolean(),
    read_only: Nullable(
      Type.Object({
        reason: StringEnum(['payment_missed', 'workspace_suspended']),
        message: Type.String(),
      }),
    ),
    settings: Settings,
    created_at: Timestamp,
  },
  {
    $id: 'Marketplace',
    examples: [
      {
        object: 'marketplace',
        id: 'mkt_01jd0000000000000000000000',
        name: 'Vintage Finds',
        currency: 'USD',
        livemode: false,
        read_only: null,
        settings: defaultSettings('test'),
        created_at: '2026-11-21T09:30:00.000Z',
      },
    ],
  },
);
export type Marketplace = Static<typeof Marketplace>;
