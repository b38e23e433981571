// GET /v1/marketplace: the marketplace and mode the key belongs to (contract 2).
import { Type } from '@sinclair/typebox';
import type { RouteModule } from '../../http/types.js';
import { Nullable, StringEnum, Timestamp } from '../../http/schemas.js';
import { defaultSettings, Settings } from './settings.js';

export const MarketplaceRecord = Type.Object(
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

export const marketplaceRoutes: RouteModule = (app) => {
  app.get(
    '/marketplace',
    {
      schema: {
        tags: ['Marketplace'],
        summary: 'Retrieve the marketplace of this key',
        operationId: 'retrieveMarketplace',
        description: 'Answers from the key cache: no database round trip on the hot path.',
        response: { 200: MarketplaceRecord },
      },
    },
    async (request) => {
      const { marketplace, scope, settings, readOnly } = request.api;
      return {
        object: 'marketplace' as const,
        id: marketplace.id,
        name: marketplace.name,
        currency: marketplace.currency,
        livemode: scope.mode === 'live',
        read_only: readOnly,
        settings,
        created_at: marketplace.created_at,
      };
    },
  );
};
