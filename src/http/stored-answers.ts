// Erasure, for the stored answers of idempotent requests (kept 24 hours for replays,
// src/http/idempotency.ts): an answer whose body is an erased object is rewritten so that a replay
// answers the erased values, and no copy of the personal data outlives the erasure.
import type { ErasureParticipant } from '../contracts/erasure.js';
import { redact } from '../contracts/redaction.js';

export const storedAnswersErasure: ErasureParticipant = {
  name: 'stored answers',
  async redactCopies(tx, scope, redacted) {
    for (const { objectIds, redaction } of redacted) {
      if (objectIds.length === 0) continue;
      const ids = new Set(objectIds);
      const rows = await tx.query<{ key: string; response_body: string }>(
        `SELECT key, response_body FROM idempotency_keys
          WHERE marketplace_id = $1 AND mode = $2 AND response_body LIKE ANY($3::text[])
          ORDER BY key FOR UPDATE`,
        [scope.marketplaceId, scope.mode, objectIds.map((id) => `%${id}%`)],
      );
      for (const row of rows) {
        let body: unknown;
        try {
          body = JSON.parse(row.response_body);
        } catch {
          continue;
        }
        if (body === null || typeof body !== 'object' || Array.isArray(body)) continue;
        const payload = body as Record<string, unknown>;
        if (typeof payload.id !== 'string' || !ids.has(payload.id)) continue;
        await tx.query('UPDATE idempotency_keys SET response_body = $4 WHERE marketplace_id = $1 AND mode = $2 AND key = $3', [
          scope.marketplaceId,
          scope.mode,
          row.key,
          JSON.stringify(redact(payload, redaction)),
        ]);
      }
    }
  },
};
