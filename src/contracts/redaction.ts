// What erasure writes over personal data, in records and in their stored copies (events, stored
// answers of idempotent requests). src/contracts/erasure.ts runs the erasure across modules.

type Payload = Record<string, unknown>;

/**
 * An erased value that depends on what the field holds and on the object holding it: for a field
 * only partly the erased party's (the evidence items they added among the other party's, a
 * dispute description only when they opened the dispute). `apply` answers the field's new value.
 */
export class Rewrite {
  constructor(readonly apply: (value: unknown, object: Payload) => unknown) {}
}

/**
 * Field name → the value it holds once erased, or a Rewrite that computes it. Only fields present
 * in a payload are touched.
 */
export type Redaction = Readonly<Record<string, unknown>>;

/** Objects whose stored copies must read as erased, and how. */
export interface Redacted {
  objectIds: readonly string[];
  redaction: Redaction;
}

/** What a seller or buyer record holds of personal data. */
export const PARTY_REDACTION: Redaction = { external_id: null, name: null, email: null, metadata: {} };

/**
 * What a text the erased party wrote reads as afterwards, where the text is kept in its place (a
 * dispute's description and evidence, a cancellation or transition reason): a fixed marker, so the
 * structure stays (an evidence item keeps its author and time) and "erased" differs from "none".
 */
export const ERASED_TEXT = '[erased]';

/**
 * The payload with every field of the redaction that it has set to its erased value. `holder` is
 * the object a Rewrite reads (the event's object when the payload is its previous_attributes).
 */
export function redact(payload: Payload, redaction: Redaction, holder: Payload = payload): Payload {
  const out: Payload = { ...payload };
  for (const [field, erased] of Object.entries(redaction)) {
    if (field in out) out[field] = erased instanceof Rewrite ? erased.apply(out[field], holder) : erased;
  }
  return out;
}
