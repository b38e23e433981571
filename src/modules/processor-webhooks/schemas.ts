// The processor webhook endpoint's path and answer.
import { Type, type Static } from '@sinclair/typebox';

/** /processor/stripe/{marketplace}/{mode}: the mode whose connection's signing secret checks the event. */
export const ProcessorWebhookParams = Type.Object(
  {
    marketplace: Type.String({ minLength: 1, maxLength: 100 }),
    // Any text: a mode that does not exist is a 404 like an unknown marketplace, not a 400.
    mode: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
);
export type ProcessorWebhookParams = Static<typeof ProcessorWebhookParams>;

export const ProcessorWebhookReceipt = Type.Object(
  {
    received: Type.Literal(true),
    /** The event was handled before (Stripe delivers at least once): nothing was done again. */
    duplicate: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type ProcessorWebhookReceipt = Static<typeof ProcessorWebhookReceipt>;
