// Erasure, for the stored events: every event about an erased object is rewritten so
// that the redacted fields hold their erased values, in data.object and in
// data.previous_attributes. Webhook deliveries keep no copy of the body (migration 0031): every
// attempt sends its event as stored, so this reaches them too.
import type { ErasureParticipant } from '../../contracts/erasure.js';
import { redact } from '../../contracts/redaction.js';
import { lockEventsOfObjects, updateEventData, type EventData } from './queries.js';

export const storedEventsErasure: ErasureParticipant = {
  name: 'stored events',
  async redactCopies(tx, scope, redacted) {
    for (const { objectIds, redaction } of redacted) {
      if (objectIds.length === 0) continue;
      for (const event of await lockEventsOfObjects(tx, scope, objectIds)) {
        const data: EventData = { object: redact(event.data.object, redaction) as EventData['object'] };
        if (event.data.previous_attributes !== undefined) {
          data.previous_attributes = redact(event.data.previous_attributes, redaction, event.data.object);
        }
        if (JSON.stringify(data) === JSON.stringify(event.data)) continue;
        await updateEventData(tx, scope, event.id, data);
      }
    }
  },
};
