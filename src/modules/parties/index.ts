// The parties module's public surface: what other modules and the composition root may use of it
// (docs/architecture.md, Import rules). Everything else in the folder is the module's own.
export { ModerationAction, ModerationActionKind, findModerationAction, findModerationActions, recordModerationAction } from './moderation-actions.js';
export { CreatePartyBody, UpdatePartyBody, applyPartyUpdate, partyFieldsOfCreate } from './schemas.js';
export type { PartyFields } from './schemas.js';
