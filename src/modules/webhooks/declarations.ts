// What the webhooks module declares for the composition root to assemble (its manifest lists it):
// the prefixes of its ids. The `declare module`s make each kind a checked IdKind.


export const WEBHOOK_ID_PREFIXES = {
  webhookEndpoint: 'whe',
  webhookDelivery: 'whd',
} as const;

type WebhookIdPrefixes = typeof WEBHOOK_ID_PREFIXES;
declare module '../../ids.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ModuleIdPrefixes extends WebhookIdPrefixes {}
}
