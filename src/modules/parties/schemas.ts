// The party body, shared by sellers and buyers: external_id, name, email, metadata.
// Create takes strings; update takes the same fields, where null clears one.
import { Type, type Static } from '@sinclair/typebox';
import { sameJson } from '../../json.js';
import { Body, Metadata, Nullable } from '../../http/schemas.js';

export const ExternalId = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: '\\S',
  description: 'Your own id for the party, up to 200 characters and not blank; unique per marketplace and mode.',
  examples: ['user_4821'],
});
export const PartyName = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: '\\S',
  description: 'Up to 200 characters, not blank.',
  examples: ['Ada Lovelace'],
});
export const Email = Type.String({ format: 'email', maxLength: 254, examples: ['ada@example.com'] });

export const CreatePartyBody = Body(
  {
    external_id: Type.Optional(ExternalId),
    name: Type.Optional(PartyName),
    email: Type.Optional(Email),
    metadata: Type.Optional(Metadata),
  },
  'Party create body. Every field is optional.',
);
export type CreatePartyBody = Static<typeof CreatePartyBody>;

export const UpdatePartyBody = Body(
  {
    external_id: Type.Optional(Nullable(ExternalId)),
    name: Type.Optional(Nullable(PartyName)),
    email: Type.Optional(Nullable(Email)),
    metadata: Type.Optional(Metadata),
  },
  'Party update body: fields left out stay as they are; null clears external_id, name or email; metadata is replaced whole.',
);
export type UpdatePartyBody = Static<typeof UpdatePartyBody>;

/** The personal data a party carries, as stored. */
export interface PartyFields {
  external_id: string | null;
  name: string | null;
  email: string | null;
  metadata: Record<string, string>;
}

/**
 * The party's fields after an update body, or null when the body changes nothing (then nothing is
 * written and no event is emitted).
 */
export function applyPartyUpdate(current: PartyFields, body: UpdatePartyBody): PartyFields | null {
  const next: PartyFields = {
    external_id: body.external_id === undefined ? current.external_id : body.external_id,
    name: body.name === undefined ? current.name : body.name,
    email: body.email === undefined ? current.email : body.email,
    metadata: body.metadata === undefined ? current.metadata : body.metadata,
  };
  const same =
    next.external_id === current.external_id &&
    next.name === current.name &&
    next.email === current.email &&
    sameJson(next.metadata, current.metadata);
  return same ? null : next;
}

export function partyFieldsOfCreate(body: CreatePartyBody): PartyFields {
  return { external_id: body.external_id ?? null, name: body.name ?? null, email: body.email ?? null, metadata: body.metadata ?? {} };
}
