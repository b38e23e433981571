// The marketplace as an API key sees it: GET /v1/marketplace. Its settings schema is
// in settings.ts.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp } from '../../http/schemas.js';
import { defaultSettings, Settings } from './settings.js';

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
