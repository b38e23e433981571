// Erasure, for stored delivery bodies: every delivery of an event about an erased object gets its
// body rewritten with the redacted fields erased (data.object and data.previous_attributes), pending
// ones included, so their next attempt sends the scrubbed body. An attempt already under way when
// the erasure commits still sends the body it read (docs/webhooks.md).
import type { ErasureParticipant } from '../../contracts/erasure.js';
import { redact } from '../../contracts/redaction.js';
import { lockDeliveriesOfObjects, updateDeliveryBody } from './queries.js';

type Envelope = { data?: { object?: Record<string, unknown>; previous_attributes?: Record<string, unknown> } } & Record<string, unknown>;

export const webhookDeliveriesErasure: ErasureParticipant = {
  name: 'webhook deliveries',
  async redactCopies(tx, scope, redacted) {
    for (const { objectIds, redaction } of redacted) {
      if (objectIds.length === 0) continue;
      for (const delivery of await lockDeliveriesOfObjects(tx, scope, objectIds)) {
        const envelope = JSON.parse(delivery.request_body) as Envelope;
        if (!envelope.data?.object) continue;
        const data: NonNullable<Envelope['data']> = { ...envelope.data, object: redact(envelope.data.object, redaction) };
        if (envelope.data.previous_attributes !== undefined) data.previous_attributes = redact(envelope.data.previous_attributes, redaction, envelope.data.object);
        const body = JSON.stringify({ ...envelope, data });
        if (body !== delivery.request_body) await updateDeliveryBody(tx, scope, delivery.id, body);
      }
    }
  },
};
