// The moderation module's manifest (src/contracts/wiring.ts): flags and moderation actions. What can
// be flagged is declared by the targets' owners (src/contracts/moderation.ts).
import type { ModuleManifest } from '../../contracts/wiring.js';
import { MODERATION_ID_PREFIXES, MODERATION_EVENT_TYPES } from './declarations.js';
import { flagsErasure } from './erasure.js';
import { moderationRoutes } from './routes/index.js';

export const moderationModule: ModuleManifest = {
  name: 'moderation',
  tables: ['flags'],
  idPrefixes: MODERATION_ID_PREFIXES,
  eventTypes: MODERATION_EVENT_TYPES,
  routes: { secret: moderationRoutes },
  erasure: { participant: flagsErasure },
  tags: [{ name: 'Trust and safety', description: 'Flags against listings, reviews, sellers and buyers, and the moderation log of what was done about them.', rank: 210 }],
};
