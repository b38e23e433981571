// What erasure writes over personal data, in records and in their stored copies (events, stored
// answers of idempotent requests). src/modules/erasure.ts runs the erasure across modules.

/** Field name → the value it holds once erased. Only fields present in a payload are touched. */
export type Redaction = Readonly<Record<string, unknown>>;

/** Objects whose stored copies must read as erased, and how. */
export interface Redacted {
  objectIds: readonly string[];
  redaction: Redaction;
}

/** What a seller or buyer record holds of personal data. */
export const PARTY_REDACTION: Redaction = { external_id: null, name: null, email: null, metadata: {} };

type Payload = Record<string, unknown>;

/** The payload with every field of the redaction that it has set to its erased value. */
export function redact(payload: Payload, redaction: Redaction): Payload {
  const out: Payload = { ...payload };
  for (const [field, erased] of Object.entries(redaction)) {
    if (field in out) out[field] = erased;
  }
  return out;
}
